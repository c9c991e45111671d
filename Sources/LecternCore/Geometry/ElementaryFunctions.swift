/// `e^x` in pure Swift, so LecternCore needs neither Foundation nor a C math library.
///
/// Range reduction `x = n·ln 2 + r` with `|r| ≤ ln 2 / 2`, then a Taylor series for `e^r`
/// (17 terms reach full double precision there), scaled by `2^n`.
func exponential(_ x: Double) -> Double {
    if x.isNaN { return x }
    if x > 709.78 { return .infinity }
    if x < -745.2 { return 0 }
    let ln2 = 0.693_147_180_559_945_309_417_232_121_458
    let n = (x / ln2).rounded()
    let r = x - n * ln2
    var term = 1.0
    var sum = 1.0
    for k in 1...17 {
        term *= r / Double(k)
        sum += term
    }
    // Split the scaling in two so that subnormal results do not overflow the exponent.
    let half = Int(n) / 2
    return sum * Double(sign: .plus, exponent: half, significand: 1)
        * Double(sign: .plus, exponent: Int(n) - half, significand: 1)
}
