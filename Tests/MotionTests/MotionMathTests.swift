import XCTest
import TestSupport
#if canImport(Glibc)
import Glibc
#else
import Foundation
#endif
@testable import Motion

/// Distance between two Doubles in units in the last place of `reference`.
func ulps(_ value: Double, _ reference: Double) -> Double {
    if value == reference { return 0 }
    return abs(value - reference) / reference.ulp
}

/// Motion's own elementary functions (MotionMath.swift) against glibc's.
/// glibc is not the definition of correct, but it is within one unit in the
/// last place of it for these functions, so a difference of 2 or more would
/// mean a real error in ours.
final class MotionMathTests: XCTestCase {
    func worst(_ count: Int, _ range: ClosedRange<Double>, seed: UInt64,
               _ ours: (Double) -> Double, _ reference: (Double) -> Double) -> (Double, Double) {
        var generator = SplitMix64(state: seed)
        var worst = 0.0, at = 0.0
        for _ in 0..<count {
            let x = Double.random(in: range, using: &generator)
            let error = ulps(ours(x), reference(x))
            if error > worst { worst = error; at = x }
        }
        return (worst, at)
    }

    func testExpAgreesWithGlibc() {
        for range in [-1.0...1.0, -50.0...50.0, -745.0...709.0] {
            let (error, at) = worst(50_000, range, seed: 1, MotionMath.exp, Glibc.exp)
            XCTAssertLessThanOrEqual(error, 1, "exp over \(range), worst at \(at)")
        }
    }

    func testExp2AgreesWithGlibcAndIsExactOnIntegers() {
        let (error, at) = worst(50_000, -60.0...60.0, seed: 2, MotionMath.exp2, Glibc.exp2)
        XCTAssertLessThanOrEqual(error, 1, "worst at \(at)")
        for k in -1074...1023 { XCTAssertEqual(MotionMath.exp2(Double(k)), Glibc.exp2(Double(k)), "2^\(k)") }
        XCTAssertEqual(MotionMath.exp2(1024), .infinity)
        XCTAssertEqual(MotionMath.exp2(-1076), 0)
    }

    func testLogAgreesWithGlibc() {
        for range in [0.5...2.0, 1e-6...1e6, 1e-300...1e300] {
            let (error, at) = worst(50_000, range, seed: 3, MotionMath.log, Glibc.log)
            XCTAssertLessThanOrEqual(error, 1, "log over \(range), worst at \(at)")
        }
        XCTAssertEqual(MotionMath.log(1), 0)
        XCTAssertEqual(MotionMath.log(0), -.infinity)
        XCTAssertTrue(MotionMath.log(-1).isNaN)
    }

    func testSinAndCosAgreeWithGlibc() {
        for range in [-Double.pi...Double.pi, -100.0...100.0, -1e5...1e5] {
            let (sinError, sinAt) = worst(50_000, range, seed: 4, MotionMath.sin, Glibc.sin)
            let (cosError, cosAt) = worst(50_000, range, seed: 5, MotionMath.cos, Glibc.cos)
            XCTAssertLessThanOrEqual(sinError, range.upperBound > 200 ? 2 : 1, "sin over \(range), worst at \(sinAt)")
            XCTAssertLessThanOrEqual(cosError, range.upperBound > 200 ? 2 : 1, "cos over \(range), worst at \(cosAt)")
        }
        XCTAssertEqual(MotionMath.sin(0), 0)
        XCTAssertEqual(MotionMath.cos(0), 1)
        XCTAssertTrue(MotionMath.sin(.infinity).isNaN)
    }

    func testHyperbolicHelpersAgreeWithGlibc() {
        var generator = SplitMix64(state: 6)
        for _ in 0..<20_000 {
            let x = Double.random(in: -3...3, using: &generator)
            XCTAssertEqual(MotionMath.sinhOverX(x), Glibc.sinh(x) / x, accuracy: 4e-16 * Glibc.cosh(x), "x = \(x)")
            XCTAssertEqual(MotionMath.cosh(x), Glibc.cosh(x), accuracy: 4e-16 * Glibc.cosh(x), "x = \(x)")
        }
        XCTAssertEqual(MotionMath.sinhOverX(0), 1)
    }
}
