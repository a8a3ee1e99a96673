import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { ApiError } from './api-client.ts';

/** What an empty number input holds; typed as number because the schema's input type says so. */
export const blankNumber = '' as unknown as number;

/**
 * A 400 from the server names its fields (`body.price`): show each message under its field, as the form's own
 * check would.
 */
export function applyServerFieldErrors<T extends FieldValues>(
  form: UseFormReturn<T, unknown, unknown>,
  error: unknown,
) {
  if (!(error instanceof ApiError) || error.status !== 400 || !error.details) return;
  for (const detail of error.details as { path?: string; message?: string }[]) {
    const field = detail.path?.replace(/^body\./, '');
    if (field && field in form.getValues()) {
      form.setError(field as Path<T>, { type: 'server', message: detail.message ?? 'Invalid value' });
    }
  }
}
