import Foundation
import SwitchboardData
import SwitchboardJSON
import Testing

/// LeanCloud's export and import files read as rows, whatever their form.
@Suite struct ExportFileReaderTests {
    private func rows(_ text: String) throws -> [ExportFileReader.Item] {
        let path = TestServer.temporaryDirectory() + ".rows"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        var reader = try ExportFileReader(path: path)
        var items: [ExportFileReader.Item] = []
        while let item = try reader.next() { items.append(item) }
        return items.map { item in
            switch item {
            case .row(let row, let place): .row(row, place: String(place.dropFirst(path.count)))
            case .unreadable(let place, let reason): .unreadable(place: String(place.dropFirst(path.count)), reason: reason)
            }
        }
    }

    @Test func jsonLinesAreReadALineAtATimeAndBadLinesReported() throws {
        let text = """
            {"objectId":"5cc6abe117b54d7448151efc","likes":1}

            {"objectId":"b","likes":
            [1,2]
            {"objectId":"c"}\r
            {"objectId":"d"}
            """
        #expect(try rows(text) == [
            .row(["objectId": "5cc6abe117b54d7448151efc", "likes": 1], place: ":1"),
            .unreadable(place: ":3", reason: "not valid JSON"),
            .unreadable(place: ":4", reason: "a row must be a JSON object"),
            .row(["objectId": "c"], place: ":5"),
            .row(["objectId": "d"], place: ":6"),
        ])
    }

    /// LeanCloud's data export puts `#filetype:JSON-streaming {"type":"Class","class":…}`
    /// before the rows of each file.
    @Test func theExportsFileTypeLineIsReadPast() throws {
        let text = """
            #filetype:JSON-streaming {"type":"Class","class":"Comment"}
            {"objectId":"a"}
            {"objectId":"b"
            """
        #expect(try rows(text) == [.row(["objectId": "a"], place: ":2"), .unreadable(place: ":3", reason: "not valid JSON")])
        #expect(try rows("#filetype:JSON-streaming {\"type\":\"Class\",\"class\":\"Comment\"}\n") == [])
        #expect(try rows("#filetype:JSON-streaming {}\n[{\"a\": 1}]") == [.row(["a": 1], place: ": item 1")])
    }

    @Test func anArrayOrAQueryAnswerIsReadWhole() throws {
        #expect(try rows("[\n  {\"a\": 1},\n  2\n]") == [.row(["a": 1], place: ": item 1"), .unreadable(place: ": item 2", reason: "a row must be a JSON object")])
        #expect(try rows("{\n \"results\": [{\"a\": 1}]\n}") == [.row(["a": 1], place: ": item 1")])
        #expect(try rows(#"{"results": [{"a": 1}, {"b": 2}]}"#) == [.row(["a": 1], place: ": item 1"), .row(["b": 2], place: ": item 2")])
        #expect(try rows("  \n") == [])
    }

    @Test func aFileThatIsNoneOfThemIsRefused() throws {
        #expect(throws: ExportFileError.self) { try rows("{\n \"rows\": [] \n}") }
        #expect(throws: ExportFileError.self) { try rows("[{\"a\": 1}") }
        #expect(throws: ExportFileError.self) { try ExportFileReader(path: "/nonexistent/x.jsonl") }
    }

    @Test func longFilesCrossTheReadBlocks() throws {
        let line = #"{"text":"\#(String(repeating: "x", count: 1000))"}"#
        let items = try rows(Array(repeating: line, count: 3000).joined(separator: "\n"))
        #expect(items.count == 3000)
        #expect(items.allSatisfy { if case .row(let row, _) = $0 { row["text"]?.stringValue?.count == 1000 } else { false } })
        if case .row(_, let place) = items.last { #expect(place == ":3000") }
    }
}
