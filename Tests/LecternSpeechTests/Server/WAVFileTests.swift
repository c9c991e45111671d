import Foundation
import Testing

@testable import LecternSpeech

@Suite struct WAVFileTests {
    private func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("lectern-wav-\(UUID().uuidString).wav").path
    }

    private func write(_ samples: [Int16], to file: WAVFile) throws {
        try samples.withUnsafeBufferPointer { buffer throws(AudioSinkError) in try file.write(buffer) }
        file.endSentence()
    }

    @Test func theHeaderSaysWhatTheFileHoldsAfterEachSentence() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try WAVFile(path: path, sampleRate: 22050, paced: false)
        try write([1, 2, 3], to: file)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.count == 44 + 6)
        #expect(Array(bytes[0..<44]) == WAVFile.header(sampleRate: 22050, dataBytes: 6))
        #expect(Array(bytes[4..<8]) == [42, 0, 0, 0])
        #expect(Array(bytes[24..<28]) == [0x22, 0x56, 0, 0])
        #expect(Array(bytes[44...]) == [1, 0, 2, 0, 3, 0])
    }

    @Test func aFileOfTheSameFormatIsContinuedAnyOtherReplaced() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try write([5, 6], to: try WAVFile(path: path, sampleRate: 22050, paced: false))
        try write([7], to: try WAVFile(path: path, sampleRate: 22050, paced: false))
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(Array(bytes[0..<44]) == WAVFile.header(sampleRate: 22050, dataBytes: 6))
        #expect(Array(bytes[44...]) == [5, 0, 6, 0, 7, 0])
        // Another rate: not the same file.
        try write([8], to: try WAVFile(path: path, sampleRate: 16000, paced: false))
        bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(Array(bytes[0..<44]) == WAVFile.header(sampleRate: 16000, dataBytes: 2))
        #expect(bytes.count == 46)
    }

    @Test func aPathThatCannotBeWrittenIsAnError() {
        #expect(throws: AudioSinkError.self) {
            try WAVFile(path: "/nonexistent/speech.wav", sampleRate: 22050, paced: false)
        }
    }
}
