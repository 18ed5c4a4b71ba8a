/**
 * Money as exact integers (SP2): amounts are kept in pico-dollars (10⁻¹² USD), so a price per
 * million tokens with six decimals times any token count is exact, and a USDC amount (six
 * decimals) is too. Decimal strings in, decimal strings out; never a float.
 */
export const PICO_DIGITS = 12;
const SCALE = 10n ** BigInt(PICO_DIGITS);

const DECIMAL = /^(0|[1-9][0-9]{0,17})(?:\.([0-9]+))?$/;

/** A non-negative decimal string with at most `maxFractionDigits` decimals, or undefined. */
export function parseDecimal(value: string, maxFractionDigits = PICO_DIGITS): bigint | undefined {
  const match = DECIMAL.exec(value);
  if (!match || (match[2] ?? '').length > maxFractionDigits) {
    return undefined;
  }
  const fraction = (match[2] ?? '').padEnd(PICO_DIGITS, '0');
  return BigInt(match[1]) * SCALE + BigInt(fraction);
}

/** Pico-dollars as the shortest exact decimal string (`1.5`, `0.000012`, `0`). */
export function formatPico(pico: bigint): string {
  const sign = pico < 0n ? '-' : '';
  const magnitude = pico < 0n ? -pico : pico;
  const whole = magnitude / SCALE;
  const fraction = (magnitude % SCALE).toString().padStart(PICO_DIGITS, '0').replace(/0+$/, '');
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** A PostgreSQL numeric read back as text (`12.500000000000`) in pico-dollars. */
export function picoOfNumeric(value: unknown): bigint {
  if (value === null || value === undefined) {
    return 0n;
  }
  const text = typeof value === 'bigint' ? value.toString() : `${value as string | number}`;
  const negative = text.startsWith('-');
  const parsed = parseDecimal(negative ? text.slice(1) : text);
  if (parsed === undefined) {
    throw new Error(`not a decimal amount: ${text}`);
  }
  return negative ? -parsed : parsed;
}

/** A numeric read back as `2.500000`: answered as the shortest decimal (`2.5`). */
export function trimDecimal(value: unknown): string {
  const text = typeof value === 'bigint' ? value.toString() : `${value as string | number}`;
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}
