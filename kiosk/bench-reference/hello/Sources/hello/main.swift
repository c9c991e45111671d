// Prints one line through Foundation, as `lectern --version` does through swift-argument-parser
// (which links FoundationEssentials): a program that only imports Foundation links none of it.
import Foundation

print("hello from process \(ProcessInfo.processInfo.processIdentifier)")
