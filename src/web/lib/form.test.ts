import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client.ts';
import { messageAboveFields, serverFieldErrors } from './form.ts';

const refused = (...details: unknown[]) => new ApiError(400, 'invalid_data', 'This Password Is Too Common', details);
const values = { name: '', email: '', password: '', address: { line1: '' } };

describe('server messages under the fields they name', () => {
  it('reads the field from details[].path and keeps the message a sentence', () => {
    const error = refused({ path: 'body.password', message: 'This Password Is Too Common' });
    expect(serverFieldErrors(values, error)).toEqual([{ field: 'password', message: 'This Password Is Too Common' }]);
    expect(messageAboveFields(values, error)).toBeNull();
  });

  it('finds nested fields, one message per field', () => {
    const error = refused(
      { path: 'body.address.line1', message: 'Address Is Required' },
      { path: 'body.address.line1', message: 'Too Short' },
    );
    expect(serverFieldErrors(values, error)).toEqual([{ field: 'address.line1', message: 'Address Is Required' }]);
  });

  it('leaves what names no field of the form above it', () => {
    for (const error of [
      refused({ path: 'params.id', message: 'Provide A Valid Id' }),
      refused({ path: 'body.token', message: 'x' }),
      refused({ path: 'body', message: 'x' }),
      new ApiError(422, 'stock_out', 'Stock Out', [{ path: 'body.quantity' }]),
      new ApiError(401, 'wrong_password', 'Wrong email or password.'),
      new Error('offline'),
    ]) {
      expect(serverFieldErrors(values, error)).toEqual([]);
      expect(messageAboveFields(values, error)).toBe(error.message);
    }
    // Partly about a field: the field shows its message, and the form says only the rest.
    const mixed = refused({ path: 'body.password', message: 'a' }, { path: 'body.token', message: 'b' });
    expect(serverFieldErrors(values, mixed)).toEqual([{ field: 'password', message: 'a' }]);
    expect(messageAboveFields(values, mixed)).toBe('b');
    expect(messageAboveFields(values, null)).toBeNull();
  });
});
