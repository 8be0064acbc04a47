// The distribution functions the tests need, accurate to about 1e-14 where p-values are read, with no dependency:
// tails are computed directly (never as 1 - CDF) so that tiny p-values keep their digits.

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** ln Γ(x) for x > 0 (Lanczos, g = 7). */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let sum = LANCZOS[0]!;
  for (let i = 1; i < LANCZOS.length; i++) sum += LANCZOS[i]! / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

const EPSILON = 1e-16;
const TINY = 1e-300;
const MAX_ITERATIONS = 1_000_000;

/** The regularised upper incomplete gamma function Q(a, x) = Γ(a, x) / Γ(a). */
export function gammaUpper(a: number, x: number): number {
  if (x <= 0) return 1;
  if (x < a + 1) return 1 - gammaLowerSeries(a, x);
  return gammaUpperFraction(a, x);
}

function gammaLowerSeries(a: number, x: number): number {
  let term = 1 / a;
  let sum = term;
  for (let k = 1; k < MAX_ITERATIONS; k++) {
    term *= x / (a + k);
    sum += term;
    if (Math.abs(term) < Math.abs(sum) * EPSILON) break;
  }
  return sum * Math.exp(-x + a * Math.log(x) - logGamma(a));
}

// Modified Lentz evaluation of the continued fraction for Γ(a, x).
function gammaUpperFraction(a: number, x: number): number {
  let b = x + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < MAX_ITERATIONS; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPSILON) break;
  }
  return Math.exp(-x + a * Math.log(x) - logGamma(a)) * h;
}

/** The regularised incomplete beta function I_x(a, b). */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x));
  if (x < (a + 1) / (a + b + 2)) return (front * betaFraction(x, a, b)) / a;
  return 1 - (front * betaFraction(1 - x, b, a)) / b;
}

function betaFraction(x: number, a: number, b: number): number {
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m < MAX_ITERATIONS; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPSILON) break;
  }
  return h;
}

/** P(Z > z) for a standard normal Z. */
export function normalUpper(z: number): number {
  if (z < 0) return 1 - normalUpper(-z);
  // erfc(z/√2) / 2, with erfc(u) = Q(1/2, u²).
  return 0.5 * gammaUpper(0.5, (z * z) / 2);
}

export function normalCdf(z: number): number {
  return normalUpper(-z);
}

export function normalDensity(z: number): number {
  return Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI);
}

/** The z with P(Z <= z) = p. */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) {
    if (p === 0) return -Infinity;
    if (p === 1) return Infinity;
    return Number.NaN;
  }
  if (p > 0.5) return -normalQuantile(1 - p);
  // A rough start (Abramowitz and Stegun 26.2.23), then Newton steps on the exact lower tail.
  const t = Math.sqrt(-2 * Math.log(p));
  let z = -(
    t -
    (2.515517 + 0.802853 * t + 0.010328 * t * t) / (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t ** 3)
  );
  for (let i = 0; i < 50; i++) {
    const step = (normalCdf(z) - p) / normalDensity(z);
    z -= step;
    if (Math.abs(step) <= 1e-15 * Math.max(1, Math.abs(z))) break;
  }
  return z;
}

/** P(|T| > t) for Student's t with ν degrees of freedom. */
export function studentTwoSidedTail(t: number, dof: number): number {
  if (!Number.isFinite(dof)) return 2 * normalUpper(Math.abs(t));
  return incompleteBeta(dof / (dof + t * t), dof / 2, 0.5);
}

function studentDensity(t: number, dof: number): number {
  return Math.exp(
    logGamma((dof + 1) / 2) -
      logGamma(dof / 2) -
      0.5 * Math.log(dof * Math.PI) -
      ((dof + 1) / 2) * Math.log1p((t * t) / dof),
  );
}

/** The t with P(T <= t) = p. */
export function studentQuantile(p: number, dof: number): number {
  if (p === 0.5) return 0;
  if (p < 0.5) return -studentQuantile(1 - p, dof);
  const upper = 1 - p;
  let t = normalQuantile(p);
  for (let i = 0; i < 100; i++) {
    const tail = studentTwoSidedTail(t, dof) / 2;
    const step = (upper - tail) / studentDensity(t, dof);
    t -= step;
    if (Math.abs(step) <= 1e-15 * Math.max(1, Math.abs(t))) break;
  }
  return t;
}

/** P(X > x) for chi-squared with k degrees of freedom. */
export function chiSquaredUpper(x: number, dof: number): number {
  return gammaUpper(dof / 2, x / 2);
}
