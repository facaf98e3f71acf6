import ArgumentParser
import Foundation
import SwitchboardArchives

/// One file `leancloud import` reads: a loose file, a file in a folder, or an entry of an
/// archive (the .tar.gz LeanCloud's data export gives, or a zip).
struct ImportInput {
    /// How reports name it: the path given, a folder's path then the file's, or an archive's
    /// path then the entry's (`export.tar.gz/Comment.0.jsonl`).
    let place: String
    /// Its path inside the folder or archive it is in, `/` between folders; a loose file's name.
    let path: String
    /// The file on disk it is read from: itself, or the archive it is in.
    let file: String
    /// Its bytes from the start. The inputs of one archive are opened one at a time.
    let open: () throws -> any ByteSource

    /// The inputs at `paths`, in order: a file as it is, a folder's export files (sub-folders
    /// too) in name order, an archive's export files in the archive's order. An archive is
    /// read through once first, so that an entry whose bytes are damaged or cut short is
    /// known before any row is taken from it: opening such an entry throws why. What cannot
    /// be read at all is printed, and `problems` is true.
    static func list(_ paths: [String]) throws -> (inputs: [ImportInput], problems: Bool) {
        var inputs: [ImportInput] = []
        var problems = false
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw ValidationError("\(path) does not exist") }
            if isFolder.boolValue {
                inputs += try folder(path)
                continue
            }
            do {
                guard let archive = try Archives.open(path: path) else {
                    inputs.append(.file(path, path: URL(fileURLWithPath: path).lastPathComponent))
                    continue
                }
                let check = try archive.check()
                if let problem = check.problem {
                    print("\(path): damaged: \(problem)")
                    problems = true
                }
                for entry in check.entries where isExportFile(entry.path) {
                    inputs.append(ImportInput(place: path + "/" + entry.path, path: entry.path, file: path) {
                        if let damage = entry.damage { throw ArchiveError(damage) }
                        return try archive.open(entry)
                    })
                }
            } catch {
                print("\(path): not imported: \(error)")
                problems = true
            }
        }
        return (inputs, problems)
    }

    private static func folder(_ root: String) throws -> [ImportInput] {
        guard let walk = FileManager.default.enumerator(atPath: root) else { throw ValidationError("\(root) cannot be read") }
        return walk.compactMap { $0 as? String }.filter(isExportFile).sorted().compactMap { path in
            var isFolder: ObjCBool = false
            let place = root + "/" + path
            guard FileManager.default.fileExists(atPath: place, isDirectory: &isFolder), !isFolder.boolValue else { return nil }
            return .file(place, path: path)
        }
    }

    /// The file at `place` on disk, `path` inside what it was found in.
    static func file(_ place: String, path: String) -> ImportInput {
        ImportInput(place: place, path: path, file: place) { try FileByteSource(path: place) }
    }

    /// JSON lines and JSON files, and the `part-00000` files of LeanCloud's older exports;
    /// not hidden files, nor what macOS adds to the zips it makes (`__MACOSX/`, `._*`).
    static func isExportFile(_ path: String) -> Bool {
        let components = path.split(separator: "/")
        guard let name = components.last, !components.contains(where: { $0.hasPrefix(".") || $0 == "__MACOSX" }) else { return false }
        return name.hasSuffix(".jsonl") || name.hasSuffix(".json") || isPartFile(name)
    }

    static func isPartFile(_ name: Substring) -> Bool {
        name.hasPrefix("part-") && name.dropFirst(5).prefix { $0 != "." }.allSatisfy(\.isNumber)
    }
}
