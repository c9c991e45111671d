import Glibc
import LecternLinux
import LecternWayland

/// A frame kept on disk (`CachedFrame`'s file), its pages mapped and checked off the loop's
/// thread: at the first configure the file itself becomes the buffer committed (its pixels are
/// laid out as a buffer's, from a page boundary), with nothing copied or faulted in: the
/// compositor maps the pages the kernel already caches. A 1280×720 frame is checked in 0.2 ms,
/// where reading it into a memfd first took 2 ms.
struct KeptFrame: Sendable {
    /// What the frame shows (`FirstFrame`'s key).
    var key: String
    /// The file's pages, read-only here (`ShmMemory.init(file:…)`).
    var memory: ShmMemory
    var width: Int { memory.width }
    var height: Int { memory.height }

    /// The frame kept at `path` for a key that starts with `keyPrefix`. Files larger than
    /// `CachedFrame.maximumBytes` are not read. The file is opened read-write, as the compositor
    /// maps a buffer's memory; this process only reads it.
    static func read(from path: String, keyPrefix: String) throws(CachedFrame.Refusal) -> KeptFrame {
        let file: SharedFile
        do throws(SystemError) {
            file = try SharedFile(path: path)
        } catch {
            throw error.code == ENOENT ? .missing : .unreadable(error.description)
        }
        guard file.size <= CachedFrame.maximumBytes else { throw .notAFrame("\(file.size) bytes") }
        let header = try CachedFrame.header(size: file.size, keyPrefix: keyPrefix) {
            count, offset throws(CachedFrame.Refusal) in
            do throws(SystemError) {
                return try file.read(count: count, at: Int64(offset))
            } catch {
                throw .unreadable(error.description)
            }
        }
        // The pages are the memory's from here on (it closes the descriptor, also on failure).
        let memory: ShmMemory
        do throws(WaylandError) {
            memory = try ShmMemory(
                file: file.takeDescriptor(), size: file.size, offset: header.pixelOffset, width: header.width,
                height: header.height, stride: header.stride)
        } catch {
            throw .unreadable("\(error)")
        }
        var hasher = CachedFrame.Hasher64()
        header.key.withUnsafeBytes { hasher.add($0) }
        hasher.end(count: header.key.count)
        hasher.add(UnsafeRawBufferPointer(start: memory.pixels, count: header.pixelBytes))
        hasher.end(count: header.pixelBytes)
        guard hasher.hash == header.checksum else { throw .corrupt("checksum") }
        return KeptFrame(key: String(decoding: header.key, as: UTF8.self), memory: memory)
    }
}
