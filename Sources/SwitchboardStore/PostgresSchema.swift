/// The PostgreSQL schema, as migrations in code, the same tables as SQLite's (`Migrations`)
/// in PostgreSQL's types. Append new migrations; never edit a shipped one.
enum PostgresSchema {
    static let migrations: [(name: String, sql: [String])] = [
        ("v1: the tables of SQLite's v16", [
            """
            CREATE TABLE conversation (
                id TEXT PRIMARY KEY,
                kind INTEGER NOT NULL,
                name TEXT,
                creator TEXT NOT NULL,
                attributes TEXT NOT NULL DEFAULT '{}',
                unique_key TEXT UNIQUE,
                muted_by TEXT NOT NULL DEFAULT '[]',
                managers TEXT NOT NULL DEFAULT '[]',
                silenced TEXT NOT NULL DEFAULT '[]',
                silenced_until TEXT NOT NULL DEFAULT '{}',
                blocked TEXT NOT NULL DEFAULT '[]',
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL,
                last_message_at BIGINT,
                expires_at BIGINT
            )
            """,
            "CREATE INDEX conversation_by_expiry ON conversation(expires_at) WHERE expires_at IS NOT NULL",
            "CREATE INDEX conversation_by_update ON conversation(updated_at)",
            """
            CREATE TABLE conversation_member (
                conversation_id TEXT NOT NULL REFERENCES conversation(id) ON DELETE CASCADE,
                client_id TEXT NOT NULL,
                position INTEGER NOT NULL,
                joined_at BIGINT NOT NULL DEFAULT 0,
                PRIMARY KEY (conversation_id, client_id)
            )
            """,
            "CREATE INDEX conversation_member_by_client ON conversation_member(client_id)",
            """
            CREATE TABLE message (
                seq BIGSERIAL PRIMARY KEY,
                id TEXT NOT NULL UNIQUE,
                conversation_id TEXT NOT NULL,
                sender TEXT NOT NULL,
                text TEXT,
                bytes BYTEA,
                lctype INTEGER NOT NULL DEFAULT 0,
                timestamp BIGINT NOT NULL,
                mention_all BOOLEAN NOT NULL DEFAULT false,
                mention_pids TEXT NOT NULL DEFAULT '[]',
                patch_timestamp BIGINT,
                wants_receipt BOOLEAN NOT NULL DEFAULT false,
                client_token TEXT,
                audience TEXT
            )
            """,
            "CREATE INDEX message_by_conversation_time ON message(conversation_id, timestamp)",
            "CREATE INDEX message_by_patch_time ON message(patch_timestamp) WHERE patch_timestamp IS NOT NULL",
            "CREATE UNIQUE INDEX message_by_client_token ON message(conversation_id, sender, client_token) WHERE client_token IS NOT NULL",
            """
            CREATE TABLE receipt_position (
                conversation_id TEXT NOT NULL,
                client_id TEXT NOT NULL,
                acknowledged_up_to BIGINT NOT NULL DEFAULT 0,
                read_up_to BIGINT NOT NULL DEFAULT 0,
                PRIMARY KEY (conversation_id, client_id)
            )
            """,
            """
            CREATE TABLE device (
                client_id TEXT NOT NULL,
                token TEXT NOT NULL,
                device_id TEXT,
                registered_at BIGINT NOT NULL,
                badge INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (client_id, token)
            )
            """,
            "CREATE INDEX device_by_token ON device(token)",
            """
            CREATE TABLE client_device (
                client_id TEXT NOT NULL,
                device_key TEXT NOT NULL,
                last_seen_at BIGINT NOT NULL,
                PRIMARY KEY (client_id, device_key)
            )
            """,
            "CREATE INDEX client_device_by_last_seen ON client_device(last_seen_at)",
            """
            CREATE TABLE device_inbox (
                client_id TEXT NOT NULL,
                device_key TEXT NOT NULL,
                message_seq BIGINT NOT NULL REFERENCES message(seq) ON DELETE CASCADE,
                delivered_at BIGINT NOT NULL,
                PRIMARY KEY (client_id, device_key, message_seq)
            )
            """,
            "CREATE INDEX device_inbox_by_message ON device_inbox(message_seq)",
            """
            CREATE TABLE notice (
                seq BIGSERIAL PRIMARY KEY,
                client_id TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                command BYTEA NOT NULL
            )
            """,
            "CREATE INDEX notice_by_client_time ON notice(client_id, created_at)",
            "CREATE INDEX notice_by_time ON notice(created_at)",
            """
            CREATE TABLE broadcast (
                message_id TEXT PRIMARY KEY REFERENCES message(id) ON DELETE CASCADE,
                valid_till BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE installation (
                object_id TEXT PRIMARY KEY,
                device_type TEXT NOT NULL,
                device_token TEXT UNIQUE,
                installation_id TEXT UNIQUE,
                registration_id TEXT,
                vendor TEXT,
                badge INTEGER NOT NULL DEFAULT 0,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX installation_by_registration ON installation(registration_id)",
            """
            CREATE TABLE installation_channel (
                channel TEXT NOT NULL,
                object_id TEXT NOT NULL REFERENCES installation(object_id) ON DELETE CASCADE,
                PRIMARY KEY (channel, object_id)
            )
            """,
            "CREATE INDEX installation_channel_by_object ON installation_channel(object_id)",
        ]),
        ("v2: the nodes of a cluster, their sessions and will messages, signature nonces, and relays too long to notify", [
            // `expires_at`: three heartbeats after the last, on the database's clock.
            "CREATE TABLE node (id TEXT PRIMARY KEY, expires_at BIGINT NOT NULL)",
            """
            CREATE TABLE client_session (
                node TEXT NOT NULL REFERENCES node(id) ON DELETE CASCADE,
                client_id TEXT NOT NULL,
                connection_id BIGINT NOT NULL,
                tag TEXT,
                PRIMARY KEY (node, client_id, connection_id)
            )
            """,
            "CREATE INDEX client_session_by_client ON client_session(client_id)",
            "CREATE TABLE relay (id BIGSERIAL PRIMARY KEY, body TEXT NOT NULL, created_at BIGINT NOT NULL)",
            // No reference to `node`: the wills of a node that is gone outlive its row, for
            // another node to send.
            "CREATE TABLE will (client_id TEXT NOT NULL, node TEXT NOT NULL, delivery TEXT NOT NULL, PRIMARY KEY (client_id, node))",
            "CREATE TABLE nonce (value TEXT PRIMARY KEY, expires_at BIGINT NOT NULL)",
        ]),
        // Which of two logins with one tag on two nodes came last, on one clock for all nodes.
        ("v2: the order of logins", ["ALTER TABLE client_session ADD COLUMN login_order BIGSERIAL"]),
        // App data (`DocumentStore`): the same tables and columns as SQLite's. Names and keys
        // compare byte by byte ("C"), as in SQLite and Swift, so that pages in object id order
        // are the same on either store whatever the database's locale.
        ("v3: app data, LeanStorage's classes, as documents with their index keys", [
            """
            CREATE TABLE storage_object (
                class_name TEXT COLLATE "C" NOT NULL,
                object_id TEXT COLLATE "C" NOT NULL,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL,
                data TEXT NOT NULL,
                PRIMARY KEY (class_name, object_id)
            )
            """,
            "CREATE INDEX storage_object_by_created ON storage_object(class_name, created_at, object_id)",
            "CREATE INDEX storage_object_by_updated ON storage_object(class_name, updated_at, object_id)",
            // `IndexEntries` of each document. The store deletes a document's entries with it,
            // by their whole key: a reference with ON DELETE CASCADE would need one more index.
            """
            CREATE TABLE storage_key (
                class_name TEXT COLLATE "C" NOT NULL,
                field TEXT COLLATE "C" NOT NULL,
                key TEXT COLLATE "C" NOT NULL,
                object_id TEXT COLLATE "C" NOT NULL,
                PRIMARY KEY (class_name, field, key, object_id)
            )
            """,
        ]),
        // Walks of every conversation and installation in object id order (LeanStorage's
        // scans, the export's), byte by byte as app data's: the primary keys go by the
        // database's locale.
        ("v4: conversations and installations in object id order, byte by byte", [
            #"CREATE INDEX conversation_by_id_bytes ON conversation (id COLLATE "C")"#,
            #"CREATE INDEX installation_by_id_bytes ON installation (object_id COLLATE "C")"#,
        ]),
        // As SQLite's v18: the `updated_at` an import last wrote (see `ImportStore`).
        ("v5: conversations as an import wrote them", ["ALTER TABLE conversation ADD COLUMN imported_updated_at BIGINT"]),
        // As SQLite's v19.
        ("v6: vendor accounts of devices", ["ALTER TABLE installation ADD COLUMN device_profile TEXT"]),
        // SQLite's v20: what that migration says.
        ("v7: positions instead of a queued copy per device", [
            "ALTER TABLE message ADD COLUMN to_every_member BOOLEAN NOT NULL DEFAULT FALSE",
            "ALTER TABLE client_device ADD COLUMN since_seq BIGINT NOT NULL DEFAULT 0",
            "ALTER TABLE conversation_member ADD COLUMN joined_seq BIGINT NOT NULL DEFAULT 0",
            "UPDATE client_device SET since_seq = (SELECT COALESCE(MAX(seq), 0) FROM message)",
            "UPDATE conversation_member SET joined_seq = (SELECT COALESCE(MAX(seq), 0) FROM message)",
            """
            CREATE TABLE device_position (
                client_id TEXT NOT NULL,
                device_key TEXT NOT NULL,
                conversation_id TEXT NOT NULL,
                acknowledged_seq BIGINT NOT NULL,
                PRIMARY KEY (client_id, device_key, conversation_id)
            )
            """,
            "CREATE INDEX message_to_every_member ON message(conversation_id, seq) WHERE to_every_member",
        ]),
        // SQLite's v23: what that migration says.
        ("v8: receipts sent once a message", [
            "ALTER TABLE message ADD COLUMN receipt_sent BOOLEAN NOT NULL DEFAULT FALSE",
            "UPDATE message SET receipt_sent = TRUE WHERE wants_receipt",
            "CREATE INDEX message_receipt_due ON message(conversation_id, timestamp) WHERE wants_receipt AND NOT receipt_sent",
        ]),
    ]
}
