import Foundation
import Geometry
import Text
import XCTest

final class FontLocatorTests: XCTestCase {
    func testDefaultFamilyLocatesAndLoads() throws {
        let file = try FontLocator.locate()
        XCTAssertTrue(FileManager.default.fileExists(atPath: file), file)
        let font = try Font(path: file)
        XCTAssertEqual(font.familyName, "DejaVu Sans")
        XCTAssertEqual(font.unitsPerEm, 2048)
    }

    func testBoldLocatesTheBoldFile() throws {
        let file = try FontLocator.locate(family: "DejaVu Sans", bold: true)
        XCTAssertTrue(file.hasSuffix("DejaVuSans-Bold.ttf"), file)
    }

    func testFamilyNameIsCaseInsensitive() throws {
        XCTAssertEqual(try FontLocator.locate(family: "dejavu sans"), try FontLocator.locate())
    }

    func testDirectPathIsAccepted() throws {
        let file = try FontLocator.locate()
        XCTAssertEqual(try FontLocator.locate(family: file, bold: true), file)
    }

    func testMissingFamilyThrowsFontNotFound() {
        XCTAssertThrowsError(try FontLocator.locate(family: "NoSuchFontFamily")) { error in
            XCTAssertEqual(error as? TextError, .fontNotFound("NoSuchFontFamily"))
            XCTAssertTrue("\(error)".contains("NoSuchFontFamily"), "\(error)")
        }
    }

    func testMissingFilePathThrowsFontNotFound() {
        XCTAssertThrowsError(try FontLocator.locate(family: "/nonexistent/Font.ttf")) { error in
            XCTAssertEqual(error as? TextError, .fontNotFound("/nonexistent/Font.ttf"))
        }
    }

    func testDefaultFontMessageSaysHowToInstall() {
        XCTAssertTrue(TextError.fontNotFound("DejaVu Sans:Bold").description.contains("apt-get install fonts-dejavu-core"))
        XCTAssertFalse(TextError.fontNotFound("NoSuchFontFamily").description.contains("fonts-dejavu-core"))
    }

    func testNonFontFileThrowsFontLoadFailed() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("chartreel-not-a-font-\(getpid()).ttf")
        try Data("not a font".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        XCTAssertThrowsError(try Font(path: file.path)) { error in
            // FT_Err_Unknown_File_Format
            XCTAssertEqual(error as? TextError, .fontLoadFailed(path: file.path, code: 2))
        }
    }

    func testUnreadableFileThrowsFontLoadFailed() {
        XCTAssertThrowsError(try Font(path: "/nonexistent/Font.ttf")) { error in
            // FT_Err_Cannot_Open_Resource
            XCTAssertEqual(error as? TextError, .fontLoadFailed(path: "/nonexistent/Font.ttf", code: 1))
        }
    }

    func testDefaultFacesComeFromTheirStandardPaths() throws {
        // Regular and bold DejaVu Sans are found at their standard paths, without fontconfig.
        XCTAssertTrue(try FontLocator.locate().hasSuffix("/DejaVuSans.ttf"))
        XCTAssertTrue(try FontLocator.locate(bold: true).hasSuffix("/DejaVuSans-Bold.ttf"))
    }

    func testFontconfigLibraryFindsOtherFamiliesAndStyles() throws {
        // fonts-dejavu-core has DejaVu Serif; fontconfig's library finds it, and an
        // oblique DejaVu Sans through a style, with the face's style flags to match.
        XCTAssertTrue(try FontLocator.locate(family: "DejaVu Serif").hasSuffix("DejaVuSerif.ttf"))
        let italic = try FontLocator.locateFace(style: FontStyle(weight: 400, italic: true))
        let font = try Font(path: italic.path, faceIndex: italic.index)
        XCTAssertTrue(font.isItalic, italic.path)
        XCTAssertEqual(font.familyName, "DejaVu Sans")
    }
}
