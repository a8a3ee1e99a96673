import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { toast } from 'react-toastify/unstyled';
import { applyServerFieldErrors } from '../../lib/form.ts';

/** A form's submit handler: runs `save` with the checked values; a refusal goes under its field (400), else in a toast. */
export function submitOrShow<T extends FieldValues, Output>(
  form: UseFormReturn<T, unknown, Output>,
  save: (values: Output) => Promise<void>,
) {
  return form.handleSubmit(async (values) => {
    try {
      await save(values);
    } catch (error) {
      // A message about a field shows under it; only the others need the toast.
      const rest = applyServerFieldErrors(form, error);
      if (rest) toast.error(rest);
    }
  });
}
