import Foundation

/// Runs a Python 3 script (the archives tests make real zips and tarballs with its zipfile and
/// tarfile), waiting for it without blocking a thread.
enum PythonScript {
    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    static func run(_ source: String, _ arguments: [String] = []) async throws {
        let errors = TestServer.temporaryDirectory() + "/python.err"
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", source] + arguments
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
        let status = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int32, any Error>) in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        guard status == 0 else { throw Failed(description: "python3 exited \(status): " + ((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")) }
    }

    /// A zip of `files` (path in the archive → text); `stored` names those kept uncompressed,
    /// the others deflated. Unseekable, it is written with a data descriptor after each entry.
    static func zip(_ path: String, _ files: [(String, String)], stored: Set<String> = [], unseekable: Bool = false) async throws {
        try await run("""
            import json, sys, zipfile
            path, files, stored, unseekable = sys.argv[1], json.load(open(sys.argv[2])), set(json.loads(sys.argv[3])), sys.argv[4] == "1"
            class Unseekable:
                def __init__(self, f): self.f = f
                def write(self, b): return self.f.write(b)
                def flush(self): self.f.flush()
            with open(path, "wb") as out:
                with zipfile.ZipFile(Unseekable(out) if unseekable else out, "w") as archive:
                    for name, text in files:
                        if name.endswith("/"):
                            archive.writestr(name, "")
                        else:
                            archive.writestr(name, text, zipfile.ZIP_STORED if name in stored else zipfile.ZIP_DEFLATED)
            """, [path, try listing(files), try json(Array(stored)), unseekable ? "1" : "0"])
    }

    /// A .tar.gz of `files` (path in the archive → text), in pax form (long names in pax
    /// headers) or GNU form (long names in `L` entries); paths ending in `/` are folders.
    static func tarGz(_ path: String, _ files: [(String, String)], gnu: Bool = false) async throws {
        try await run("""
            import io, json, sys, tarfile
            path, files, gnu = sys.argv[1], json.load(open(sys.argv[2])), sys.argv[3] == "1"
            with tarfile.open(path, "w:gz", format=tarfile.GNU_FORMAT if gnu else tarfile.PAX_FORMAT) as archive:
                for name, text in files:
                    info = tarfile.TarInfo(name.rstrip("/"))
                    if name.endswith("/"):
                        info.type = tarfile.DIRTYPE
                        archive.addfile(info)
                    else:
                        data = text.encode()
                        info.size = len(data)
                        archive.addfile(info, io.BytesIO(data))
            """, [path, try listing(files), gnu ? "1" : "0"])
    }

    /// The files as a JSON file of `[path, text]` pairs (too long for an argument), its path.
    private static func listing(_ files: [(String, String)]) throws -> String {
        let path = TestServer.temporaryDirectory() + "/files.json"
        try json(files.map { [$0.0, $0.1] }).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private static func json(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value), as: UTF8.self)
    }
}
