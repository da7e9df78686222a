internal import CFFTW
import Foundation

/// A real FFT of one power-of-two size and its inverse: FFTW's single-precision plans and the
/// two aligned buffers they work on. The single owner of those plans and buffers, and the only
/// code that calls FFTW.
///
/// The FFTW planner (plan creation and destruction) is not thread-safe, so every planner call
/// goes through one process-wide lock; executing a plan is safe on any thread as long as each
/// plan has buffers of its own, which is what one `RealFFT` per user gives. Plans are made with
/// `FFTW_ESTIMATE`: no measuring at start, and the same algorithm on every run, so the same
/// input gives the same output bit for bit.
///
/// Not for sharing between threads: one owner uses it at a time.
final class RealFFT: @unchecked Sendable {
    /// Serialises FFTW's planner (`fftwf_plan_*`, `fftwf_destroy_plan`).
    private static let planner = NSLock()

    let size: Int
    /// `size / 2 + 1` complex bins.
    let bins: Int
    /// The time-domain buffer: `forward` reads it, `inverse` writes it.
    let signal: UnsafeMutableBufferPointer<Float>
    /// The spectrum as interleaved real and imaginary parts (2 × `bins` floats): `forward` writes
    /// it, `inverse` reads (and FFTW's c2r destroys) it.
    let spectrum: UnsafeMutableBufferPointer<Float>
    private let complex: UnsafeMutablePointer<fftwf_complex>
    private let forwardPlan: fftwf_plan
    private let inversePlan: fftwf_plan

    /// - Precondition: `size` is a power of two of at least 16 (a programmer's choice, never input).
    /// The corresponding C functions are `fftwf_alloc_real`, `fftwf_alloc_complex`,
    /// `fftwf_plan_dft_r2c_1d` and `fftwf_plan_dft_c2r_1d`; a null result means no memory, which
    /// traps as every allocation failure does.
    init(size: Int) {
        precondition(size >= 16 && size & (size - 1) == 0, "a real FFT of \(size) points: the size must be a power of two")
        self.size = size
        bins = size / 2 + 1
        guard let real = fftwf_alloc_real(size), let complex = fftwf_alloc_complex(bins) else {
            preconditionFailure("FFTW could not allocate buffers for \(size) points")
        }
        real.initialize(repeating: 0, count: size)
        self.complex = complex
        signal = UnsafeMutableBufferPointer(start: real, count: size)
        let floats = UnsafeMutableRawPointer(complex).bindMemory(to: Float.self, capacity: 2 * bins)
        floats.initialize(repeating: 0, count: 2 * bins)
        spectrum = UnsafeMutableBufferPointer(start: floats, count: 2 * bins)
        Self.planner.lock()
        let forward = fftwf_plan_dft_r2c_1d(Int32(size), real, complex, NARRATE_FFTW_ESTIMATE)
        let inverse = fftwf_plan_dft_c2r_1d(Int32(size), complex, real, NARRATE_FFTW_ESTIMATE)
        Self.planner.unlock()
        guard let forward, let inverse else {
            preconditionFailure("FFTW could not plan a real FFT of \(size) points")
        }
        forwardPlan = forward
        inversePlan = inverse
    }

    /// The corresponding C functions are `fftwf_destroy_plan` and `fftwf_free`.
    deinit {
        Self.planner.lock()
        fftwf_destroy_plan(forwardPlan)
        fftwf_destroy_plan(inversePlan)
        Self.planner.unlock()
        fftwf_free(signal.baseAddress)
        fftwf_free(complex)
    }

    /// `signal` → `spectrum` (unnormalised). The corresponding C function is `fftwf_execute`.
    func forward() { fftwf_execute(forwardPlan) }

    /// `spectrum` → `signal`, `size` times the original (FFTW's inverse is unnormalised); the
    /// spectrum is destroyed. The corresponding C function is `fftwf_execute`.
    func inverse() { fftwf_execute(inversePlan) }
}
