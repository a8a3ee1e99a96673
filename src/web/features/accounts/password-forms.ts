import { z } from 'zod';
import { validationMessages as m } from '../../../shared/messages.ts';
import { changePasswordBodySchema, resetPasswordBodySchema } from '../../../shared/schemas/accounts.ts';

/*
 * The password forms ask for the new password twice; the server receives it once. The rules of the password itself
 * are the shared schemas' (the common-password list stays on the server, out of the web bundle).
 */

const confirmPassword = z.string({ error: m.passwordRequired }).min(1, m.passwordRequired);

export const resetPasswordFormSchema = resetPasswordBodySchema
  .pick({ password: true })
  .extend({ confirmPassword })
  .refine((values) => values.password === values.confirmPassword, {
    path: ['confirmPassword'],
    message: m.passwordsDiffer,
  });
export type ResetPasswordValues = z.infer<typeof resetPasswordFormSchema>;

export const changePasswordFormSchema = changePasswordBodySchema
  .extend({ confirmPassword })
  .refine((values) => values.newPassword === values.confirmPassword, {
    path: ['confirmPassword'],
    message: m.passwordsDiffer,
  });
export type ChangePasswordValues = z.infer<typeof changePasswordFormSchema>;
