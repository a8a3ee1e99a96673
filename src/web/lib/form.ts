import { type FieldValues, get, type Path, type UseFormReturn } from 'react-hook-form';
import { ApiError, errorMessage } from './api-client.ts';

/** What an empty number input holds; typed as number because the schema's input type says so. */
export const blankNumber = '' as unknown as number;

/** One server message that belongs under a field of the form. */
export interface ServerFieldError {
  field: string;
  message: string;
}

/**
 * The messages of a 400 that name fields of this form. The server names each field in `details[].path`
 * (`body.price`, `body.items.0.name`); the message itself is the sentence alone. Fields the form does not have
 * (a path parameter, a field of another form) are left out: their message belongs above the form.
 */
export function serverFieldErrors(values: object, error: unknown): ServerFieldError[] {
  if (!(error instanceof ApiError) || error.status !== 400 || !error.details) return [];
  const found: ServerFieldError[] = [];
  for (const detail of error.details as { path?: unknown; message?: unknown }[]) {
    if (typeof detail?.path !== 'string' || !detail.path.startsWith('body.')) continue;
    const field = detail.path.slice('body.'.length);
    if (!(field in values) && get(values, field) === undefined) continue;
    if (found.some((known) => known.field === field)) continue;
    found.push({ field, message: typeof detail.message === 'string' ? detail.message : error.message });
  }
  return found;
}

/**
 * What of a failed submit is left to say above the form (or in a toast) once the messages about its fields are
 * under them: the whole message when none is, the other details' messages when some are, null when nothing is left.
 */
export function messageAboveFields(values: object, error: unknown): string | null {
  if (!error) return null;
  const fields = serverFieldErrors(values, error);
  if (fields.length === 0) return errorMessage(error);
  const placed = new Set(fields.map(({ field }) => `body.${field}`));
  const rest = new Set<string>();
  for (const detail of (error as ApiError).details as { path?: unknown; message?: unknown }[]) {
    if (typeof detail?.path === 'string' && placed.has(detail.path)) continue;
    rest.add(typeof detail?.message === 'string' ? detail.message : (error as ApiError).message);
  }
  return rest.size > 0 ? [...rest].join(' ') : null;
}

/**
 * Shows each server message that names a field of the form under that field, as the form's own check would, and
 * moves the focus to the first one. Answers what is left to show above the form or in a toast (null: nothing).
 */
export function applyServerFieldErrors<T extends FieldValues>(
  form: UseFormReturn<T, unknown, unknown>,
  error: unknown,
): string | null {
  const values = form.getValues();
  serverFieldErrors(values, error).forEach(({ field, message }, index) => {
    form.setError(field as Path<T>, { type: 'server', message }, { shouldFocus: index === 0 });
  });
  return messageAboveFields(values, error);
}
