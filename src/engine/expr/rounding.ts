/**
 * jsonata's `$round(value, precision)`: round half to even at a decimal
 * precision. jsonata moves the decimal point textually (`value.toString()` with
 * the exponent shifted by `precision`, parsed back), rounds to an integer, then
 * moves the point back the same way. `roundByDecimalShift` does exactly that;
 * `roundHalfEven` first tries an arithmetic shortcut that provably gives the
 * same number and falls back to the textual shift when it cannot be sure.
 */

/** Exact powers of ten (10^22 is the largest one a double holds exactly). */
const POW10: readonly number[] = Array.from({ length: 23 }, (_v, i) => Number(`1e${i}`));

/** The shifted value must stay well inside the range where doubles hold every half-integer. */
const MAX_SHIFTED = 2 ** 50;

/** Rounding after the textual decimal shift, as jsonata does it. */
export function roundByDecimalShift(value: number, precision: number | undefined): number {
  let arg = value;
  if (precision) {
    const parts = arg.toString().split('e');
    arg = +(parts[0] + 'e' + (parts[1] ? +parts[1] + precision : precision));
  }
  let result = Math.round(arg);
  const diff = result - arg;
  if (Math.abs(diff) === 0.5 && Math.abs(result % 2) === 1) result = result - 1;
  if (precision) {
    const parts = result.toString().split('e');
    result = +(parts[0] + 'e' + (parts[1] ? +parts[1] - precision : -precision));
  }
  if (Object.is(result, -0)) result = 0;
  return result;
}

/**
 * The textual shift parses `shortest(value) × 10^p`; the product `value × 10^p`
 * differs from it by less than 2^-51 of its magnitude (half an ulp of `value`,
 * scaled, plus one rounding on each side). When the product is farther than
 * 2^-49 of its magnitude from every half-integer, both round to the same
 * integer r (no tie is involved). Shifting back, jsonata parses r's exact
 * digits (|r| < 2^53) with the exponent -p, i.e. the correctly rounded r / 10^p,
 * which is what one IEEE division (or multiplication) by the exact power gives.
 */
export function roundHalfEven(value: number, precision: number | undefined): number {
  if (!precision) return roundByDecimalShift(value, precision);
  if (!Number.isInteger(precision) || precision > 22 || precision < -22 || !Number.isFinite(value)) {
    return roundByDecimalShift(value, precision);
  }
  const scale = POW10[precision > 0 ? precision : -precision];
  const shifted = precision > 0 ? value * scale : value / scale;
  const magnitude = Math.abs(shifted);
  if (!(magnitude < MAX_SHIFTED)) return roundByDecimalShift(value, precision);
  const fraction = Math.abs(shifted - Math.trunc(shifted)); // exact below 2^52
  if (!(Math.abs(fraction - 0.5) > magnitude * 2 ** -49)) return roundByDecimalShift(value, precision);
  const rounded = Math.round(shifted);
  const result = precision > 0 ? rounded / scale : rounded * scale;
  return result === 0 ? 0 : result; // no -0
}
