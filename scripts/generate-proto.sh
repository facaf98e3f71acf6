#!/usr/bin/env bash
# Regenerates Sources/SwitchboardWire/messages.pb.swift from messages.proto.
# Needs `protoc` (Debian: protobuf-compiler) and protoc-gen-swift from swift-protobuf 1.39.0
# on PATH (build it once: `swift build -c release --product protoc-gen-swift` in a checkout).
# Not part of the build or CI: the generated file is committed.
set -euo pipefail
cd "$(dirname "$0")/../Sources/SwitchboardWire"
protoc --swift_out=. --swift_opt=Visibility=Public messages.proto
generated=messages.pb.swift
{
  cat <<'NOTE'
// Why `@unchecked Sendable` below is safe: swift-protobuf gives messages with many fields a
// private heap `_StorageClass` that is copied before every mutation when it is shared
// (copy-on-write through isKnownUniquelyReferenced), so two values never mutate the same
// storage; the generator cannot express that to the compiler, hence the annotation.
NOTE
  cat "$generated"
} > "$generated.tmp" && mv "$generated.tmp" "$generated"
