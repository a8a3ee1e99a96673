import { type ComponentProps, useEffect } from 'react';
import Form from 'react-bootstrap/Form';
import { type FieldValues, get, type Path, type UseFormReturn } from 'react-hook-form';
import { errorMessage } from '../lib/api-client.ts';
import { applyServerFieldErrors, messageAboveFields } from '../lib/form.ts';

type ControlProps = Omit<ComponentProps<typeof Form.Control>, 'name' | 'isInvalid'>;

interface FormFieldProps<T extends FieldValues> extends ControlProps {
  /** Any form over these values, whatever its resolver turns them into on submit. */
  form: UseFormReturn<T, unknown, FieldValues>;
  name: Path<T>;
  label: string;
  /** Text under the field that helps before anything goes wrong. */
  hint?: string;
  /** react-hook-form's valueAsNumber, for number inputs bound to zod numbers. */
  asNumber?: boolean;
}

/**
 * The one form field: react-hook-form registration, a visible label tied to the control, and the zod message
 * under the field (announced to screen readers through aria-describedby / aria-invalid).
 */
export function FormField<T extends FieldValues>({
  form,
  name,
  label,
  hint,
  asNumber,
  id,
  ...control
}: FormFieldProps<T>) {
  const fieldId = id ?? `field-${String(name)}`;
  const error = form.formState.errors[name]?.message;
  const describedBy = [hint ? `${fieldId}-hint` : null, error ? `${fieldId}-error` : null].filter(Boolean).join(' ');
  // The form's default is in the server's HTML too (react-hook-form sets a registered field only once it runs in the
  // browser): a server-rendered field does not show empty and then fill in when the page is hydrated, and a visitor
  // who starts typing before then starts from what they see. Only there: in the browser react-hook-form
  // sets it, and a `defaultValue` would also become a text area's text.
  const initial: unknown = import.meta.env.SSR ? get(form.formState.defaultValues ?? {}, name) : undefined;
  return (
    <Form.Group className="mb-3" controlId={fieldId}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        defaultValue={typeof initial === 'string' || typeof initial === 'number' ? String(initial) : undefined}
        {...control}
        {...form.register(name, asNumber ? { valueAsNumber: true } : undefined)}
        isInvalid={Boolean(error)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
      />
      {hint ? (
        <Form.Text id={`${fieldId}-hint`} className="text-body-secondary">
          {hint}
        </Form.Text>
      ) : null}
      {error ? (
        <Form.Control.Feedback type="invalid" id={`${fieldId}-error`} role="alert">
          {String(error)}
        </Form.Control.Feedback>
      ) : null}
    </Form.Group>
  );
}

/**
 * A failed submit's message, announced at once; nothing while there is no error. Given the form, a server message
 * about one of its fields (a 400 naming `body.password`) goes under that field instead, as the form's own check
 * would put it, and only a message about no field of the form shows here.
 */
export function FormError<T extends FieldValues>({
  error,
  form,
}: {
  error: unknown;
  form?: UseFormReturn<T, unknown, FieldValues>;
}) {
  const message = form ? messageAboveFields(form.getValues(), error) : error ? errorMessage(error) : null;
  useEffect(() => {
    // Once per failed submit (each is a new error): the user's edits may clear a field's message before the next.
    if (form) applyServerFieldErrors(form, error);
  }, [form, error]);
  if (!message) return null;
  return (
    <p className="text-danger small" role="alert">
      {message}
    </p>
  );
}
