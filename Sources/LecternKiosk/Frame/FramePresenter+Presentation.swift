import Histogram
import LecternWayland

/// The input a committed frame shows (set once it is committed, read when it is presented).
final class ShownInput {
    var input: FrameInput?
}

extension FramePresenter {
    /// A frame reached the screen (or was discarded): the time from the input it shows, on the
    /// compositor's clock (only CLOCK_MONOTONIC, which wlroots compositors stamp input with:
    /// another presentation clock, such as weston's CLOCK_MONOTONIC_RAW, is not compared).
    func presented(_ presented: Presented?, showing input: FrameInput?) {
        guard let presented else { return presentations.discarded += 1 }
        presentations.presented += 1
        guard let input, display.presentsOnMonotonicClock,
            let seconds = input.seconds(to: presented.seconds)
        else { return }
        presentations.last = .init(input: input.kind.rawValue, seconds: seconds)
        presentations.refresh = presented.refresh
        latencies.record(seconds, for: input.kind)
        onPresented?(input.kind, seconds)
    }

    /// What the compositor said of the frames, with the percentiles so far (worked out here,
    /// when asked, not at every frame).
    var presentationStatus: KioskStatus.Presentations {
        var status = presentations
        status.percentiles = latencies.percentiles
        return status
    }
}

/// Input→present times since the start, by input, to the microsecond: their percentiles
/// (HdrHistogram, 2 significant digits, up to 60 s).
final class InputLatencies {
    private var histograms: [FrameInput.Kind: Histogram<UInt64>] = [:]

    func record(_ seconds: Double, for input: FrameInput.Kind) {
        // In place: a copy taken out of the dictionary would copy its counts at every frame.
        _ = histograms[
            input, default: Histogram(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .two)
        ]
        .record(UInt64(max(0, seconds * 1e6).rounded()))
    }

    /// By input ("touch", "pointer", "key"): how many, the median, the 99th percentile and the
    /// longest, in seconds.
    var percentiles: [String: KioskStatus.Presentations.Percentiles] {
        Dictionary(
            uniqueKeysWithValues: histograms.map { input, histogram in
                (
                    input.rawValue,
                    KioskStatus.Presentations.Percentiles(
                        count: Int(histogram.totalCount), p50: Double(histogram.valueAtPercentile(50)) / 1e6,
                        p99: Double(histogram.valueAtPercentile(99)) / 1e6, max: Double(histogram.max) / 1e6)
                )
            })
    }
}

extension KioskStatus {
    /// What the compositor said of the frames (`wp_presentation`).
    public struct Presentations: Equatable, Sendable {
        public var presented = 0
        public var discarded = 0
        /// The output's refresh period (seconds; 0: unknown), from the last presented frame.
        public var refresh = 0.0
        /// The last input→present time measured: the input ("touch", "pointer", "key").
        public var last: Last?
        /// Every input→present time measured, by input.
        public var percentiles: [String: Percentiles] = [:]

        public struct Percentiles: Codable, Equatable, Sendable {
            public var count: Int
            public var p50: Double
            public var p99: Double
            public var max: Double
        }

        public struct Last: Equatable, Sendable {
            public var input: String
            public var seconds: Double
        }
    }
}
