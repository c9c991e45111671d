import CALSA
import Glibc
import SystemPackage

/// Where the speech process writes samples (16-bit mono): a sound card or a WAV file.
protocol AudioSink: AnyObject {
    /// For the log and `SpeechEvent.ready` ("ALSA default", "WAV /tmp/speech.wav").
    var description: String { get }
    /// Whether writing is held to the pace of playback (a sound card, a paced WAV file).
    var isPaced: Bool { get }
    /// Writes `samples`; throws why it cannot (the sentence is then abandoned).
    func write(_ samples: UnsafeBufferPointer<Int16>) throws(AudioSinkError)
    /// A sentence ended or was stopped: a WAV file's header is made right.
    func endSentence()
    /// Discards what is buffered and not yet played (a stop or a pause).
    func drop()
}

/// Why an output cannot be opened or written, as an operator reads it.
struct AudioSinkError: Error, CustomStringConvertible {
    var description: String
}

/// Opens `output` for samples at `sampleRate` Hz.
func openSink(_ output: SpeechOutput, sampleRate: Int) throws(AudioSinkError) -> any AudioSink {
    switch output {
    case .alsa(let device): return try ALSADevice(device: device, sampleRate: sampleRate)
    case .wav(let path, let paced): return try WAVFile(path: path, sampleRate: sampleRate, paced: paced)
    }
}

/// An ALSA playback device. Its buffer holds at most `latency` of audio, so a stop (which
/// drops the buffer) silences it at once.
final class ALSADevice: AudioSink {
    static let latencyMicroseconds: UInt32 = 50_000
    private let pcm: UnsafeMutableRawPointer
    let description: String
    var isPaced: Bool { true }

    init(device: String, sampleRate: Int) throws(AudioSinkError) {
        var error = [CChar](repeating: 0, count: 256)
        guard let pcm = CALSA_open(device, UInt32(sampleRate), Self.latencyMicroseconds, &error, Int32(error.count))
        else {
            throw AudioSinkError(description: "cannot open the ALSA device \(device): \(String(nulTerminated: error))")
        }
        self.pcm = pcm
        description = "ALSA \(device)"
    }

    deinit { CALSA_close(pcm) }

    func write(_ samples: UnsafeBufferPointer<Int16>) throws(AudioSinkError) {
        var error = [CChar](repeating: 0, count: 256)
        let written = CALSA_write(pcm, samples.baseAddress, samples.count, &error, Int32(error.count))
        if written < 0 { throw AudioSinkError(description: "\(description): \(String(nulTerminated: error))") }
    }

    func endSentence() {}
    func drop() { CALSA_drop(pcm) }
}

/// A WAV file (PCM, 16-bit mono) that every sentence is appended to. A file this process (or
/// an earlier one) wrote at the same rate is continued; anything else is replaced. The header's
/// sizes are written after each sentence.
final class WAVFile: AudioSink {
    static let headerSize = 44
    private let file: FileDescriptor
    private let sampleRate: Int
    private var dataBytes: Int
    let description: String
    let isPaced: Bool

    init(path: String, sampleRate: Int, paced: Bool) throws(AudioSinkError) {
        do {
            file = try FileDescriptor.open(
                path, .readWrite, options: [.create, .closeOnExec],
                permissions: [.ownerReadWrite, .groupRead, .otherRead])
        } catch {
            throw AudioSinkError(description: "cannot open \(path) for speech: \(error)")
        }
        self.sampleRate = sampleRate
        isPaced = paced
        description = "WAV \(path)"
        dataBytes = 0
        let header = Self.header(sampleRate: sampleRate, dataBytes: 0)
        var existing = [UInt8](repeating: 0, count: Self.headerSize)
        let read = (try? existing.withUnsafeMutableBytes { try file.read(fromAbsoluteOffset: 0, into: $0) }) ?? 0
        let size = (try? file.seek(offset: 0, from: .end)) ?? 0
        // The same format (bytes 8 … 35: "WAVE", "fmt ", the rate and sample size): continue it.
        if read == Self.headerSize, existing[0..<4] == header[0..<4], existing[8..<36] == header[8..<36] {
            dataBytes = Int(size) - Self.headerSize
        } else {
            do {
                try file.resize(to: 0)
                _ = try header.withUnsafeBytes { try file.writeAll(toAbsoluteOffset: 0, $0) }
                _ = try file.seek(offset: Int64(Self.headerSize), from: .start)
            } catch {
                try? file.close()
                throw AudioSinkError(description: "cannot write \(path): \(error)")
            }
        }
    }

    deinit {
        endSentence()
        try? file.close()
    }

    func write(_ samples: UnsafeBufferPointer<Int16>) throws(AudioSinkError) {
        do {
            let written = try file.writeAll(UnsafeRawBufferPointer(samples))
            dataBytes += written
        } catch {
            throw AudioSinkError(description: "\(description): \(error)")
        }
    }

    func endSentence() {
        let header = Self.header(sampleRate: sampleRate, dataBytes: dataBytes)
        _ = try? header.withUnsafeBytes { try file.writeAll(toAbsoluteOffset: 0, $0) }
    }

    func drop() { endSentence() }

    /// The 44-byte header of a 16-bit mono PCM file holding `dataBytes` of samples.
    static func header(sampleRate: Int, dataBytes: Int) -> [UInt8] {
        func little(_ value: Int, _ bytes: Int) -> [UInt8] { (0..<bytes).map { UInt8((value >> (8 * $0)) & 0xff) } }
        return Array("RIFF".utf8) + little(36 + dataBytes, 4) + Array("WAVEfmt ".utf8) + little(16, 4)
            + little(1, 2) + little(1, 2) + little(sampleRate, 4) + little(sampleRate * 2, 4) + little(2, 2)
            + little(16, 2) + Array("data".utf8) + little(dataBytes, 4)
    }
}

extension String {
    /// The text a C function wrote into `buffer`, up to its NUL.
    init(nulTerminated buffer: [CChar]) {
        self.init(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
