#!/usr/bin/env python3
"""Checks that a WAV file Lectern's speech wrote holds the expected sentences, in order.

Usage: check-speech.py FILE.wav [--skip-first N] --expect SENTENCE... [--distractor SENTENCE...]

Free transcription of espeak-ng's voice is too poor to assert on, so the audio is split at
its silences into windows, and each window is decoded by pocketsphinx (PyPI `pocketsphinx`,
which ships its US English model) against a JSGF grammar of the expected sentences and the
distractors (a window that decodes to nothing is joined with the next). Speak with espeak-ng's
`en-us` voice: against this model its British `en` voice decodes to nothing. Passes (exit 0) when the windows decode to the expected sentences in order and
nothing else; prints what each window was heard as. Exit 1: they do not; exit 2: cannot check.
`--skip-first N`: the first N windows (sentences the recognizer cannot hear reliably, such as
"Page 2 of 2", which it never decodes) must be there but are not decoded.
"""
import argparse
import array
import math
import os
import re
import sys
import tempfile
import wave

SILENCE_RMS = 300  # of 32767: espeak-ng's pauses are digital silence or close to it
SILENCE_SECONDS = 0.25  # a pause this long ends a window (espeak-ng's sentence pause: ~0.35 s)


ONES = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen \
sixteen seventeen eighteen nineteen".split()
TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def number(n):
    """A whole number below 1000 as espeak-ng says it ("two", "forty two", "one hundred five")."""
    if n < 20:
        return ONES[n]
    if n < 100:
        return TENS[n // 10] + ("" if n % 10 == 0 else " " + ONES[n % 10])
    rest = n % 100
    return ONES[n // 100] + " hundred" + ("" if rest == 0 else " " + number(rest))


def words(sentence):
    spelled = re.sub(r"\d+", lambda m: " " + number(int(m.group())) + " " if int(m.group()) < 1000 else " ", sentence)
    return re.sub(r"[^a-z' ]", " ", spelled.lower()).split()


def resample(samples, rate, wanted):
    """`samples` (an array of 16-bit samples) at `wanted` Hz, by linear interpolation."""
    count = len(samples) * wanted // rate
    result = array.array("h", bytes(2 * count))
    step = rate / wanted
    for index in range(count):
        position = index * step
        left = int(position)
        right = min(left + 1, len(samples) - 1)
        fraction = position - left
        result[index] = int(samples[left] * (1 - fraction) + samples[right] * fraction)
    return result


def windows(samples, rate):
    """The stretches of sound between silences: (start, end) sample offsets."""
    frame = rate // 100
    quiet_needed = int(SILENCE_SECONDS * 100)
    result, start, quiet = [], None, 0
    for index in range(0, len(samples) // frame):
        chunk = samples[index * frame : (index + 1) * frame]
        if math.sqrt(sum(value * value for value in chunk) / frame) < SILENCE_RMS:
            quiet += 1
            if start is not None and quiet >= quiet_needed:
                result.append((start, (index - quiet + 1) * frame))
                start = None
        else:
            if start is None:
                start = max(0, index - 5) * frame
            quiet = 0
    if start is not None:
        result.append((start, len(samples)))
    # Clicks and breaths are not sentences.
    return [(start, end) for start, end in result if end - start >= rate // 5]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("wav")
    parser.add_argument("--expect", nargs="+", required=True)
    parser.add_argument("--distractor", nargs="*", default=[])
    parser.add_argument("--skip-first", type=int, default=0)
    arguments = parser.parse_args()
    try:
        from pocketsphinx import Decoder, get_model_path
    except ImportError:
        print("check-speech: pocketsphinx is not installed (kiosk/install-deps installs it)")
        return 2
    with wave.open(arguments.wav) as audio:
        if audio.getnchannels() != 1 or audio.getsampwidth() != 2:
            print("check-speech: not 16-bit mono")
            return 2
        rate = audio.getframerate()
        samples = array.array("h", audio.readframes(audio.getnframes()))
    if sys.byteorder != "little":
        samples.byteswap()
    if rate != 16000:  # the English model's rate
        samples = resample(samples, rate, 16000)

    sentences = [" ".join(words(s)) for s in arguments.expect + arguments.distractor]
    grammar = "#JSGF V1.0;\ngrammar speech;\npublic <sentence> = " + " | ".join(
        "( " + s + " )" for s in sentences) + ";\n"
    model = get_model_path()
    with tempfile.NamedTemporaryFile("w", suffix=".gram", delete=False) as file:
        file.write(grammar)
    try:
        decoder = Decoder(
            hmm=os.path.join(model, "en-us", "en-us"),
            dict=os.path.join(model, "en-us", "cmudict-en-us.dict"),
            jsgf=file.name,
            loglevel="FATAL",
        )
    finally:
        os.unlink(file.name)

    def decode(start, end):
        decoder.start_utt()
        decoder.process_raw(samples[start:end].tobytes(), full_utt=True)
        decoder.end_utt()
        hypothesis = decoder.hyp()
        return hypothesis.hypstr if hypothesis else ""

    # A sentence with a full stop inside ("Welcome. This is …") spans windows: a window that
    # decodes to nothing is decoded again joined with the next ones (at most three).
    spans, heard, index = windows(samples, 16000), [], 0
    if len(spans) < arguments.skip_first:
        print(f"check-speech: {len(spans)} windows, fewer than the {arguments.skip_first} to skip")
        return 1
    spans = spans[arguments.skip_first:]
    while index < len(spans):
        for joined in range(1, 4):
            last = min(index + joined, len(spans)) - 1
            text = decode(spans[index][0], spans[last][1])
            if text:
                break
        heard.append(text)
        index = last + 1
    expected = [" ".join(words(s)) for s in arguments.expect]
    for index, text in enumerate(heard):
        print(f"heard {index}: {text or '(nothing)'}")
    if heard != expected:
        print(f"check-speech: expected {expected}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
