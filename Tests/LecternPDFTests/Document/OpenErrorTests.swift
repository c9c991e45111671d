import Foundation
import LecternCore
import Testing

@testable import LecternPDF

/// Each bad input gives its own error kind and a message naming the file and the problem.
@Suite struct OpenErrorTests {
    private func openError(_ path: String, password: String? = nil) -> PDFError? {
        do throws(PDFError) {
            _ = try PDFDocument(path: path, password: password)
            return nil
        } catch {
            return error
        }
    }

    @Test func missingFileIsFileNotFound() throws {
        let path = Fixture.path("does-not-exist.pdf")
        let error = try #require(openError(path))
        #expect(error.kind == .fileNotFound)
        #expect(error.message == "cannot open \(path): no such file")
        #expect(error.path == path)
    }

    @Test func directoryIsUnreadable() throws {
        let error = try #require(openError(Fixture.directory.path))
        #expect(error.kind == .unreadable)
        #expect(error.message.contains("is a directory"))
    }

    @Test func plainTextIsNotAPDF() throws {
        let path = Fixture.path("not-a-pdf.pdf")
        let error = try #require(openError(path))
        #expect(error.kind == .notAPDF)
        #expect(
            error.message
                == "cannot open \(path): the file is not a PDF (it does not start with %PDF-), nor an EPUB, FB2, XHTML, XPS, CBZ or image"
        )
    }

    @Test func emptyFileIsNotAPDF() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("empty.pdf").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let error = try #require(openError(path))
        #expect(error.kind == .notAPDF)
        #expect(error.message.hasSuffix("the file is empty"))
    }

    @Test func zeroPagesIsNoPages() throws {
        let path = Fixture.path("zero-pages.pdf")
        let error = try #require(openError(path))
        #expect(error.kind == .noPages)
        #expect(error.message == "cannot open \(path): the document has no pages")
    }

    @Test func encryptedWithoutPasswordSaysSo() throws {
        let path = Fixture.path("encrypted.pdf")
        let error = try #require(openError(path))
        #expect(error.kind == .passwordRequired)
        #expect(error.isEncrypted)
        #expect(error.message == "cannot open \(path): the file is encrypted and no password was configured")
    }

    @Test func encryptedWithWrongPasswordSaysSo() throws {
        let error = try #require(openError(Fixture.path("encrypted.pdf"), password: "not-the-password"))
        #expect(error.kind == .wrongPassword)
        #expect(error.message.hasSuffix("the file is encrypted and the configured password is wrong"))
    }

    @Test(arguments: ["lectern-user", "lectern-owner"])
    func encryptedWithRightPasswordOpens(password: String) throws {
        let document = try PDFDocument(path: Fixture.path("encrypted.pdf"), password: password)
        #expect(document.pageCount == 3)
        let bitmap = try Bitmap.renderPage(document, page: 0, scale: 0.5)
        #expect(bitmap.darkPixels(in: bitmap.fullRect) > 500)
    }

    @Test func passwordOnAnUnencryptedFileIsIgnored() throws {
        let document = try PDFDocument(path: Fixture.text3Pages, password: "anything")
        #expect(document.pageCount == 3)
    }

    /// MuPDF 1.21 repairs this truncation: the first pages survive, the page tree still says 6 pages.
    @Test func truncatedFileIsRepaired() throws {
        let document = try PDFDocument(path: Fixture.path("truncated.pdf"))
        #expect(document.wasRepaired)
        #expect(document.pageCount == 6)
        let bitmap = try Bitmap.renderPage(document, page: 0, scale: 0.5)
        #expect(bitmap.darkPixels(in: bitmap.fullRect) > 500)
    }

    /// Pages whose objects were cut off: an error or a blank page, never a crash.
    /// (MuPDF 1.21 makes them blank pages of its default size, US Letter.)
    @Test func truncatedFileLostPagesDoNotCrash() throws {
        let document = try PDFDocument(path: Fixture.path("truncated.pdf"))
        #expect(try document.pageInfo(at: 1).displaySize == Size(width: 842, height: 595))
        #expect(try document.pageInfo(at: 5).displaySize == Size(width: 612, height: 792))
        for index in 0..<document.pageCount {
            do throws(PDFError) {
                let bitmap = try Bitmap.renderPage(document, page: index, scale: 0.25)
                #expect(bitmap.width > 0)
            } catch {
                #expect(error.kind == .renderFailed || error.kind == .renderIncomplete || error.kind == .damaged)
            }
        }
    }

    @Test func brokenXrefIsRepaired() throws {
        let document = try PDFDocument(path: Fixture.path("bad-xref.pdf"))
        #expect(document.wasRepaired)
        #expect(document.pageCount == 3)
    }

    @Test func intactFileIsNotRepaired() throws {
        let document = try PDFDocument(path: Fixture.text3Pages)
        #expect(!document.wasRepaired)
    }
}
