import Glibc
import LecternLinux
import LecternWayland

/// A frame kept on disk (`CachedFrame`'s file), read straight into the memory of a frame buffer
/// off the loop's thread, checked there: at the first configure it becomes a buffer and is
/// committed at once, with nothing left to copy or fault in (`ShmBufferPool.adopt`).
struct KeptFrame: Sendable {
    /// What the frame shows (`FirstFrame`'s key).
    var key: String
    var memory: ShmMemory
    var width: Int { memory.width }
    var height: Int { memory.height }

    /// The frame kept at `path` for a key that starts with `keyPrefix`. Files larger than
    /// `CachedFrame.maximumBytes` are not read.
    static func read(from path: String, keyPrefix: String) throws(CachedFrame.Refusal) -> KeptFrame {
        let file: ReadOnlyFile
        let size: Int64
        do throws(SystemError) {
            file = try ReadOnlyFile(path: path)
            size = try file.identity().size
        } catch {
            throw error.code == ENOENT ? .missing : .unreadable(error.description)
        }
        guard size <= CachedFrame.maximumBytes else { throw .notAFrame("\(size) bytes") }
        func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(CachedFrame.Refusal) -> Int {
            do throws(SystemError) {
                return try file.read(into: buffer, at: Int64(offset))
            } catch {
                throw .unreadable(error.description)
            }
        }
        let header = try CachedFrame.header(size: Int(size), keyPrefix: keyPrefix) {
            count, offset throws(CachedFrame.Refusal) in
            var failure: CachedFrame.Refusal?
            let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                do throws(CachedFrame.Refusal) {
                    initialized = try read(into: UnsafeMutableRawBufferPointer(buffer), at: offset)
                } catch {
                    failure = error
                    initialized = 0
                }
            }
            if let failure { throw failure }
            return bytes
        }
        let memory: ShmMemory
        do throws(WaylandError) {
            memory = try ShmMemory(width: header.width, height: header.height)
        } catch {
            throw .unreadable("\(error)")
        }
        // The rows, each where the buffer wants it; hashed as one stream (rows of a multiple of
        // eight bytes: an odd width is read whole first, then copied row by row).
        let rowBytes = header.width * 4
        var hasher = CachedFrame.Hasher64()
        header.key.withUnsafeBytes { hasher.add($0) }
        hasher.end(count: header.key.count)
        if rowBytes % 8 == 0 {
            let rowsAtOnce = memory.stride == rowBytes ? header.height : 1
            var row = 0
            while row < header.height {
                let count = min(rowsAtOnce, header.height - row) * rowBytes
                let target = UnsafeMutableRawBufferPointer(start: memory.pixels + row * memory.stride, count: count)
                guard try read(into: target, at: header.pixelOffset + row * rowBytes) == count else {
                    throw .corrupt("short read")
                }
                for part in stride(from: 0, to: count, by: rowBytes) {
                    hasher.add(UnsafeRawBufferPointer(rebasing: target[part..<(part + rowBytes)]))
                }
                row += count / rowBytes
            }
        } else {
            var pixels = [UInt8](repeating: 0, count: header.pixelBytes)
            let count = pixels.withUnsafeMutableBytes { buffer in
                Result { () throws(CachedFrame.Refusal) in try read(into: buffer, at: header.pixelOffset) }
            }
            guard try count.get() == pixels.count else { throw .corrupt("short read") }
            pixels.withUnsafeBytes { source in
                hasher.add(source)
                for row in 0..<header.height {
                    (memory.pixels + row * memory.stride).copyMemory(
                        from: source.baseAddress! + row * rowBytes, byteCount: rowBytes)
                }
            }
        }
        hasher.end(count: header.pixelBytes)
        guard hasher.hash == header.checksum else { throw .corrupt("checksum") }
        return KeptFrame(key: String(decoding: header.key, as: UTF8.self), memory: memory)
    }
}
