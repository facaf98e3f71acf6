import Foundation
import Testing
@testable import SwitchboardJS

/// The frames between the server and its script hosts, read through a real pipe in pieces of
/// whatever size the pipe hands over.
@Suite(.storeBlind) struct HostFrameInputTests {
    private func pipeEnds() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        return (ends[0], ends[1])
    }

    private func frame(_ text: String) -> [UInt8] {
        withUnsafeBytes(of: UInt32(text.utf8.count).littleEndian, Array.init) + Array(text.utf8)
    }

    @Test func framesWrittenTogetherAreReadOneByOne() throws {
        let (readEnd, writeEnd) = try pipeEnds()
        defer { close(readEnd) }
        let bodies = (0..<50).map { "frame \($0) " + String(repeating: "x", count: $0 * 7) }
        FileHandle(fileDescriptor: writeEnd).write(Data(bodies.flatMap(frame)))
        close(writeEnd)
        var input = HostFrameInput(fd: readEnd)
        var read: [String] = []
        while let body = try input.next() { read.append(String(decoding: body, as: UTF8.self)) }
        #expect(read == bodies)
    }

    @Test func aFrameLargerThanOneReadArrivesWhole() throws {
        let (readEnd, writeEnd) = try pipeEnds()
        defer { close(readEnd) }
        let large = String(repeating: "source;", count: 40_000)  // 280 KB: several reads, more than the pipe holds
        let writer = Thread {
            FileHandle(fileDescriptor: writeEnd).write(Data(frame("before") + frame(large) + frame("after")))
            close(writeEnd)
        }
        writer.start()
        var input = HostFrameInput(fd: readEnd)
        var read: [String] = []
        while let body = try input.next() { read.append(String(decoding: body, as: UTF8.self)) }
        #expect(read == ["before", large, "after"])
    }

    /// What tells a host and the server's reader that a batch is over.
    @Test func aWholeFrameReadInIsKnownToWait() throws {
        let (readEnd, writeEnd) = try pipeEnds()
        defer { close(readEnd) }
        FileHandle(fileDescriptor: writeEnd).write(Data(frame("one") + frame("two") + frame("three").prefix(6)))
        var input = HostFrameInput(fd: readEnd)
        #expect(!input.hasWholeFrame)
        #expect(try input.next().map { String(decoding: $0, as: UTF8.self) } == "one")
        #expect(input.hasWholeFrame)
        #expect(try input.next().map { String(decoding: $0, as: UTF8.self) } == "two")
        #expect(!input.hasWholeFrame)
        FileHandle(fileDescriptor: writeEnd).write(Data(frame("three").dropFirst(6)))
        close(writeEnd)
        #expect(try input.next().map { String(decoding: $0, as: UTF8.self) } == "three")
        #expect(!input.hasWholeFrame)
    }

    @Test func aPipeClosedWithinAFrameIsBroken() throws {
        let (readEnd, writeEnd) = try pipeEnds()
        defer { close(readEnd) }
        FileHandle(fileDescriptor: writeEnd).write(Data(frame("whole") + frame("cut short").prefix(7)))
        close(writeEnd)
        var input = HostFrameInput(fd: readEnd)
        #expect(try input.next().map { String(decoding: $0, as: UTF8.self) } == "whole")
        #expect(throws: HostFrame.Broken.self) { try input.next() }
    }
}
