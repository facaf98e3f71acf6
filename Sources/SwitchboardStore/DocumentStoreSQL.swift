/// SQL that SQLite and PostgreSQL run alike on the app data tables.
enum DocumentStoreSQL {
    /// The class names of `storage_object`, each found by one probe of the primary key past
    /// the one before (a loose index scan), not by reading every object.
    static let classNames = """
        WITH RECURSIVE class(name) AS (
            SELECT MIN(class_name) FROM storage_object
            UNION ALL
            SELECT (SELECT MIN(class_name) FROM storage_object WHERE class_name > class.name) FROM class WHERE class.name IS NOT NULL
        )
        SELECT name FROM class WHERE name IS NOT NULL
        """
}
