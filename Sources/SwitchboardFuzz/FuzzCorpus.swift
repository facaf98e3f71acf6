import Foundation

/// The saved fuzzer inputs: the seed corpus and the findings kept as regression cases.
public enum FuzzCorpus {
    /// The file at `path`, or every file under it when it is a folder, sorted.
    public static func files(at path: String) throws -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { return [path] }
        let names = try FileManager.default.subpathsOfDirectory(atPath: path).sorted()
        return names.map { path + "/" + $0 }.filter { file in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: file, isDirectory: &isFolder) && !isFolder.boolValue
        }
    }
}
