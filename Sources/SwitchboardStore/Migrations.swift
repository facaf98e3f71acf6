import GRDB

/// The schema, as migrations in code. Append new migrations; never edit a shipped one.
enum Migrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: conversations, members, messages, inbox") { db in
            try db.execute(sql: """
                CREATE TABLE conversation (
                    id TEXT PRIMARY KEY NOT NULL,
                    kind INTEGER NOT NULL,
                    name TEXT,
                    creator TEXT NOT NULL,
                    attributes TEXT NOT NULL DEFAULT '{}',
                    unique_key TEXT UNIQUE,
                    muted_by TEXT NOT NULL DEFAULT '[]',
                    created_at INTEGER NOT NULL,
                    updated_at INTEGER NOT NULL,
                    last_message_at INTEGER,
                    expires_at INTEGER
                );
                CREATE TABLE conversation_member (
                    conversation_id TEXT NOT NULL REFERENCES conversation(id) ON DELETE CASCADE,
                    client_id TEXT NOT NULL,
                    position INTEGER NOT NULL,
                    PRIMARY KEY (conversation_id, client_id)
                ) WITHOUT ROWID;
                CREATE INDEX conversation_member_by_client ON conversation_member(client_id);
                CREATE TABLE message (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    id TEXT NOT NULL UNIQUE,
                    conversation_id TEXT NOT NULL,
                    sender TEXT NOT NULL,
                    text TEXT,
                    bytes BLOB,
                    lctype INTEGER NOT NULL DEFAULT 0,
                    timestamp INTEGER NOT NULL,
                    mention_all INTEGER NOT NULL DEFAULT 0,
                    mention_pids TEXT NOT NULL DEFAULT '[]',
                    patch_timestamp INTEGER,
                    wants_receipt INTEGER NOT NULL DEFAULT 0
                );
                CREATE INDEX message_by_conversation_time ON message(conversation_id, timestamp);
                CREATE TABLE inbox (
                    client_id TEXT NOT NULL,
                    message_seq INTEGER NOT NULL REFERENCES message(seq) ON DELETE CASCADE,
                    delivered_at INTEGER NOT NULL,
                    PRIMARY KEY (client_id, message_seq)
                ) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v2: find edited and recalled messages") { db in
            try db.execute(sql: "CREATE INDEX message_by_patch_time ON message(patch_timestamp) WHERE patch_timestamp IS NOT NULL")
        }
        migrator.registerMigration("v3: receipt positions") { db in
            try db.execute(sql: """
                CREATE TABLE receipt_position (
                    conversation_id TEXT NOT NULL,
                    client_id TEXT NOT NULL,
                    acknowledged_up_to INTEGER NOT NULL DEFAULT 0,
                    read_up_to INTEGER NOT NULL DEFAULT 0,
                    PRIMARY KEY (conversation_id, client_id)
                ) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v4: client tokens against double sends") { db in
            try db.execute(sql: """
                ALTER TABLE message ADD COLUMN client_token TEXT;
                CREATE UNIQUE INDEX message_by_client_token ON message(conversation_id, sender, client_token)
                    WHERE client_token IS NOT NULL;
                """)
        }
        migrator.registerMigration("v5: devices for push") { db in
            try db.execute(sql: """
                CREATE TABLE device (
                    client_id TEXT NOT NULL,
                    token TEXT NOT NULL,
                    device_id TEXT,
                    registered_at INTEGER NOT NULL,
                    PRIMARY KEY (client_id, token)
                ) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v6: find expired conversations") { db in
            try db.execute(sql: "CREATE INDEX conversation_by_expiry ON conversation(expires_at) WHERE expires_at IS NOT NULL")
        }
        migrator.registerMigration("v7: a queue per device") { db in
            // Queued copies were per client; they become the queue of the client's default
            // device (''), which a client's first named device takes over at its first login.
            try db.execute(sql: """
                CREATE TABLE client_device (
                    client_id TEXT NOT NULL,
                    device_key TEXT NOT NULL,
                    last_seen_at INTEGER NOT NULL,
                    PRIMARY KEY (client_id, device_key)
                ) WITHOUT ROWID;
                CREATE INDEX client_device_by_last_seen ON client_device(last_seen_at);
                CREATE TABLE device_inbox (
                    client_id TEXT NOT NULL,
                    device_key TEXT NOT NULL,
                    message_seq INTEGER NOT NULL REFERENCES message(seq) ON DELETE CASCADE,
                    delivered_at INTEGER NOT NULL,
                    PRIMARY KEY (client_id, device_key, message_seq)
                ) WITHOUT ROWID;
                CREATE INDEX device_inbox_by_message ON device_inbox(message_seq);
                INSERT INTO device_inbox (client_id, device_key, message_seq, delivered_at)
                    SELECT client_id, '', message_seq, delivered_at FROM inbox;
                DROP TABLE inbox;
                """)
        }
        migrator.registerMigration("v8: member roles, silenced members, blacklist") { db in
            try db.execute(sql: """
                ALTER TABLE conversation ADD COLUMN managers TEXT NOT NULL DEFAULT '[]';
                ALTER TABLE conversation ADD COLUMN silenced TEXT NOT NULL DEFAULT '[]';
                ALTER TABLE conversation ADD COLUMN blocked TEXT NOT NULL DEFAULT '[]';
                """)
        }
        migrator.registerMigration("v9: notices kept for devices offline") { db in
            try db.execute(sql: """
                CREATE TABLE notice (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    client_id TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    command BLOB NOT NULL
                );
                CREATE INDEX notice_by_client_time ON notice(client_id, created_at);
                CREATE INDEX notice_by_time ON notice(created_at);
                """)
        }
        migrator.registerMigration("v10: members silenced for a while") { db in
            try db.execute(sql: "ALTER TABLE conversation ADD COLUMN silenced_until TEXT NOT NULL DEFAULT '{}'")
        }
        migrator.registerMigration("v11: app-wide broadcasts") { db in
            try db.execute(sql: """
                CREATE TABLE broadcast (
                    message_id TEXT PRIMARY KEY REFERENCES message(id) ON DELETE CASCADE,
                    valid_till INTEGER NOT NULL
                ) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v12: when members joined") { db in
            // Members are now written one by one as they come and go, so a row's age is
            // when its client joined; rows from before show the conversation's creation.
            try db.execute(sql: """
                ALTER TABLE conversation_member ADD COLUMN joined_at INTEGER NOT NULL DEFAULT 0;
                UPDATE conversation_member SET joined_at =
                    (SELECT created_at FROM conversation WHERE conversation.id = conversation_member.conversation_id);
                """)
        }
        migrator.registerMigration("v13: messages to some of a conversation's members") { db in
            try db.execute(sql: "ALTER TABLE message ADD COLUMN audience TEXT")
        }
        migrator.registerMigration("v14: badge counts") { db in
            try db.execute(sql: "ALTER TABLE device ADD COLUMN badge INTEGER NOT NULL DEFAULT 0")
            try db.execute(sql: "CREATE INDEX device_by_token ON device(token)")
        }
        migrator.registerMigration("v15: installations") { db in
            try db.execute(sql: """
                CREATE TABLE installation (
                    object_id TEXT PRIMARY KEY,
                    device_type TEXT NOT NULL,
                    device_token TEXT UNIQUE,
                    installation_id TEXT UNIQUE,
                    registration_id TEXT,
                    vendor TEXT,
                    badge INTEGER NOT NULL DEFAULT 0,
                    created_at INTEGER NOT NULL,
                    updated_at INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE installation_channel (
                    channel TEXT NOT NULL,
                    object_id TEXT NOT NULL REFERENCES installation(object_id) ON DELETE CASCADE,
                    PRIMARY KEY (channel, object_id)
                ) WITHOUT ROWID;
                CREATE INDEX installation_channel_by_object ON installation_channel(object_id);
                """)
        }
        migrator.registerMigration("v16: FCM tokens looked up") { db in
            // FCM names a dead device by its registration id.
            try db.execute(sql: "CREATE INDEX installation_by_registration ON installation(registration_id)")
        }
        migrator.registerMigration("v17: app data (LeanStorage classes)") { db in
            // Documents are JSON text; `storage_key` holds `IndexEntries` for each, so an
            // equality on any field reads only its matches.
            try db.execute(sql: """
                CREATE TABLE storage_object (
                    class_name TEXT NOT NULL,
                    object_id TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    updated_at INTEGER NOT NULL,
                    data TEXT NOT NULL,
                    PRIMARY KEY (class_name, object_id)
                );
                CREATE INDEX storage_object_by_created ON storage_object(class_name, created_at, object_id);
                CREATE INDEX storage_object_by_updated ON storage_object(class_name, updated_at, object_id);
                CREATE TABLE storage_key (
                    class_name TEXT NOT NULL,
                    field TEXT NOT NULL,
                    key TEXT NOT NULL,
                    object_id TEXT NOT NULL,
                    PRIMARY KEY (class_name, field, key, object_id)
                ) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v18: conversations as an import wrote them") { db in
            // The `updated_at` an import last wrote: while it is still the row's, the
            // conversation has not changed here since, and an export's roles and lists of
            // it apply (see `ImportStore`).
            try db.execute(sql: "ALTER TABLE conversation ADD COLUMN imported_updated_at INTEGER")
        }
        migrator.registerMigration("v19: vendor accounts of devices") { db in
            // Which of the app's accounts with the device's maker its token came from.
            try db.execute(sql: "ALTER TABLE installation ADD COLUMN device_profile TEXT")
        }
        migrator.registerMigration("v20: positions instead of a queued copy per device") { db in
            // A message to every member is no longer queued per device: each device keeps its
            // position in each conversation (the last message it acknowledged), and what it has
            // still to receive is read from the conversation's messages after it. Copies already
            // queued stay and are delivered as before; positions count from here on.
            try db.execute(sql: """
                ALTER TABLE message ADD COLUMN to_every_member INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE client_device ADD COLUMN since_seq INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE conversation_member ADD COLUMN joined_seq INTEGER NOT NULL DEFAULT 0;
                UPDATE client_device SET since_seq = (SELECT COALESCE(MAX(seq), 0) FROM message);
                UPDATE conversation_member SET joined_seq = (SELECT COALESCE(MAX(seq), 0) FROM message);
                CREATE TABLE device_position (
                    client_id TEXT NOT NULL,
                    device_key TEXT NOT NULL,
                    conversation_id TEXT NOT NULL,
                    acknowledged_seq INTEGER NOT NULL,
                    PRIMARY KEY (client_id, device_key, conversation_id)
                ) WITHOUT ROWID;
                CREATE INDEX message_to_every_member ON message(conversation_id) WHERE to_every_member;
                """)
        }
        migrator.registerMigration("v21: client tokens looked up in memory") { db in
            // A message sent again is found among its conversation's recent tokens, read from
            // the rows (see `RecentClientTokens`): the index took a random page per message.
            try db.execute(sql: "DROP INDEX message_by_client_token")
        }
        migrator.registerMigration("v22: positions with timestamp floors") { db in
            // Messages to every member are found from a position through the index by
            // conversation and time, not an index of their own (which took a page per message):
            // each position keeps a floor, and a message stored after it has a timestamp of at
            // least the floor less the clock's inversion. `delivery_clock` holds the newest
            // timestamp of a message to every member and the most any later one fell below it
            // (they are stamped before hooks run and stored after, so not quite in order).
            try db.execute(sql: """
                ALTER TABLE device_position ADD COLUMN acknowledged_floor INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE client_device ADD COLUMN since_floor INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE conversation_member ADD COLUMN joined_floor INTEGER NOT NULL DEFAULT 0;
                CREATE TABLE delivery_clock (id INTEGER PRIMARY KEY CHECK (id = 1), newest INTEGER NOT NULL, inversion INTEGER NOT NULL);
                """)
            var newest = Int64.min
            var inversion: Int64 = 0
            let timestamps = try Int64.fetchCursor(db, sql: "SELECT timestamp FROM message WHERE to_every_member ORDER BY seq")
            while let timestamp = try timestamps.next() {
                if newest != .min { inversion = max(inversion, newest - timestamp) }
                newest = max(newest, timestamp)
            }
            try db.execute(
                sql: "INSERT INTO delivery_clock (id, newest, inversion) VALUES (1, ?, ?)", arguments: [newest == .min ? 0 : newest, inversion]
            )
            // The message a device acknowledged last is its floor; the rest have none and read
            // their conversations whole until their position moves.
            try db.execute(sql: """
                UPDATE device_position SET acknowledged_floor = COALESCE(
                    (SELECT timestamp FROM message WHERE seq = acknowledged_seq AND to_every_member), 0);
                DROP INDEX message_to_every_member;
                """)
        }
        migrator.registerMigration("v23: receipts sent once a message") { db in
            // A message's delivery receipt goes out once, whichever ack brings it: a device's
            // ack of the message or an ack by time of the history it fetched (the Android
            // SDK's). The index holds only messages still waiting for theirs. Those stored
            // before had theirs sent as their acks came.
            try db.execute(sql: """
                ALTER TABLE message ADD COLUMN receipt_sent INTEGER NOT NULL DEFAULT 0;
                UPDATE message SET receipt_sent = 1 WHERE wants_receipt;
                CREATE INDEX message_receipt_due ON message(conversation_id, timestamp) WHERE wants_receipt AND NOT receipt_sent;
                """)
        }
        return migrator
    }
}
