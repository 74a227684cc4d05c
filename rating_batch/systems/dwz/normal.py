"""The normal distribution of the DWZ (docs/systems.md §10.5), vectorised without SciPy:
Φ by Cephes' ``ndtr`` (W. J. Cody's rational approximations of erf and erfc, about 1e-16
relative), Φ⁻¹ by P. J. Acklam's approximation refined by one Halley step (full double
precision); the expected score P(D) and the difference D(p) as the regulation rounds them."""

from __future__ import annotations

import numpy as np

from rating_batch.systems.base import half_away

_SQRT_HALF = 0.7071067811865476
#: erf(x) = x · T(x²) / U(x²) for |x| < 1.
_T = (9.60497373987051638749e0, 9.00260197203842689217e1, 2.23200534594684319226e3,
      7.00332514112805075473e3, 5.55923013010394962768e4)  # fmt: skip
_U = (1.0, 3.35617141647503099647e1, 5.21357949780152679795e2, 4.59432382970980127987e3,
      2.26290000613890934246e4, 4.92673942608635921086e4)  # fmt: skip
#: erfc(x) = exp(−x²) · P(x) / Q(x) for 1 ≤ x < 8, R(x) / S(x) from 8.
_P = (2.46196981473530512524e-10, 5.64189564831068821977e-1, 7.46321056442269912687e0,
      4.86371970985681366614e1, 1.96520832956077098242e2, 5.26445194995477358631e2,
      9.34528527171957607540e2, 1.02755188689515710272e3, 5.57535335369399327526e2)  # fmt: skip
_Q = (1.0, 1.32281951154744992508e1, 8.67072140885989742329e1, 3.54937778887819891062e2,
      9.75708501743205489753e2, 1.82390916687909736289e3, 2.24633760818710981792e3,
      1.65666309194161350182e3, 5.57535340817727675546e2)  # fmt: skip
_R = (5.64189583547755073984e-1, 1.27536670759978104416e0, 5.01905042251180477414e0,
      6.16021097993053585195e0, 7.40974269950448939160e0, 2.97886665372100240670e0)  # fmt: skip
_S = (1.0, 2.26052863220117276590e0, 9.39603524938001434673e0, 1.20489539808096656605e1,
      1.70814450747565897222e1, 9.60896809063285878198e0, 3.36907645100081516050e0)  # fmt: skip
#: Acklam's Φ⁻¹: central (a/b) and tail (c/d) coefficients, highest power first.
_A = (-3.969683028665376e01, 2.209460984245205e02, -2.759285104469687e02,
      1.383577518672690e02, -3.066479806614716e01, 2.506628277459239e00)  # fmt: skip
_B = (-5.447609879822406e01, 1.615858368580409e02, -1.556989798598866e02,
      6.680131188771972e01, -1.328068155288572e01, 1.0)  # fmt: skip
_C = (-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e00,
      -2.549732539343734e00, 4.374664141464968e00, 2.938163982698783e00)  # fmt: skip
_D = (7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e00,
      3.754408661907416e00, 1.0)  # fmt: skip


def _poly(x: np.ndarray, coefficients: tuple[float, ...]) -> np.ndarray:
    total: np.ndarray = np.zeros_like(x)
    for coefficient in coefficients:
        total = total * x + coefficient
    return total


def _erfc_tail(x: np.ndarray) -> np.ndarray:
    """erfc(x) for x ≥ 1."""
    near = _poly(x, _P) / _poly(x, _Q)
    far = _poly(x, _R) / _poly(x, _S)
    tail: np.ndarray = np.exp(-x * x) * np.where(x < 8.0, near, far)
    return tail


def phi(x: np.ndarray | float) -> np.ndarray:
    """Φ(x), the standard normal distribution function."""
    z = np.asarray(x, np.float64) * _SQRT_HALF
    small = np.abs(z) < 1.0
    inner = np.minimum(np.abs(z), 1.0)
    central = 0.5 + 0.5 * (inner * _poly(inner * inner, _T) / _poly(inner * inner, _U))
    central = np.where(z < 0, 1.0 - central, central)
    tail = 0.5 * _erfc_tail(np.maximum(np.abs(z), 1.0))
    result: np.ndarray = np.where(small, central, np.where(z < 0, tail, 1.0 - tail))
    return result


def phi_inverse(p: np.ndarray | float) -> np.ndarray:
    """Φ⁻¹(p) for 0 < p < 1."""
    p = np.asarray(p, np.float64)
    low = 0.02425
    q = p - 0.5
    r = q * q
    central = _poly(r, _A) * q / _poly(r, _B)
    t = np.sqrt(-2.0 * np.log(np.where(p < 0.5, p, 1.0 - p).clip(1e-300, None)))
    tail = _poly(t, _C) / _poly(t, _D)
    x = np.where(p < low, tail, np.where(p > 1.0 - low, -tail, central))
    error = phi(x) - p  # one Halley step: Acklam's 1e-9 to full precision
    u = error * np.sqrt(2.0 * np.pi) * np.exp(x * x / 2.0)
    refined: np.ndarray = x - u / (1.0 + x * u / 2.0)
    return refined


def expected(difference: np.ndarray, scale: float, decimals: np.ndarray | int = 0) -> np.ndarray:
    """P(D) = Φ(D / scale) (scale = σ·√2, 200·√2 by default), rounded half up to
    ``decimals`` (per value) where that is more than 0 (the central program's table,
    ``p_decimals``)."""
    p = phi(np.asarray(difference, np.float64) / scale)
    factor = 10.0 ** np.asarray(decimals, np.float64)
    rounded: np.ndarray = np.where(factor > 1.0, np.floor(p * factor + 0.5) / factor, p)
    return rounded


def difference(p: np.ndarray, scale: float) -> np.ndarray:
    """D(p) = scale · Φ⁻¹(p), p held to [0.001, 0.999], rounded half away from zero."""
    held = np.clip(np.asarray(p, np.float64), 0.001, 0.999)
    return half_away(scale * phi_inverse(held))
