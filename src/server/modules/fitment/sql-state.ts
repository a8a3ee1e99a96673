/**
 * The SQLSTATE of a failed statement, looking through the causes drivers wrap it in: 23505 a broken unique index
 * (a duplicate name), 23503 a broken foreign key (a vehicle or model deleted by an admin at the same moment).
 */
export function sqlState(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export const UNIQUE_VIOLATION = '23505';
export const FOREIGN_KEY_VIOLATION = '23503';
