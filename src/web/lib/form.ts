import { type FieldValues, get, type Path, type UseFormReturn } from 'react-hook-form';
import { ApiError } from './api-client.ts';

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
 * Shows each server message that names a field of the form under that field, as the form's own check would, and
 * moves the focus to the first one. True when the whole error went under fields: nothing is left to show above the
 * form or in a toast.
 */
export function applyServerFieldErrors<T extends FieldValues>(
  form: UseFormReturn<T, unknown, unknown>,
  error: unknown,
): boolean {
  const fields = serverFieldErrors(form.getValues(), error);
  fields.forEach(({ field, message }, index) => {
    form.setError(field as Path<T>, { type: 'server', message }, { shouldFocus: index === 0 });
  });
  return fields.length > 0 && fields.length === countDetails(error);
}

/** Whether an error is shown under fields of a form (so not above it): see `applyServerFieldErrors`. */
export function isFieldError(values: object, error: unknown): boolean {
  const fields = serverFieldErrors(values, error);
  return fields.length > 0 && fields.length === countDetails(error);
}

function countDetails(error: unknown): number {
  if (!(error instanceof ApiError) || !error.details) return 0;
  return new Set(error.details.map((detail) => (detail as { path?: unknown })?.path)).size;
}
