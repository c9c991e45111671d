// swift-tools-version: 6.1
// The reference for `lectern --version`: a Swift hello world that uses Foundation, which
// kiosk/bench builds exactly as it builds Lectern (release, Swift runtime linked in statically).
import PackageDescription

let package = Package(name: "hello", targets: [.executableTarget(name: "hello")])
