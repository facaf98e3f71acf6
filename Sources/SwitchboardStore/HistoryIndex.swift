/// SQLite's index of each conversation's history by time (made by migration v1), which
/// history pages read. A large import sets it aside and builds it afresh at the end: kept up
/// message by message it takes every batch's messages all over its pages, and each batch's
/// transaction writes every page it touched to the write-ahead log again (at a million
/// messages, a third of the import's writing and two fifths of its time in SQLite); built
/// once from the whole table, it is one sorted pass. A store opened while the index is
/// aside (an import killed midway) builds it before anything reads history.
enum HistoryIndex {
    static let create = "CREATE INDEX IF NOT EXISTS message_by_conversation_time ON message(conversation_id, timestamp)"
    static let drop = "DROP INDEX IF EXISTS message_by_conversation_time"
}
