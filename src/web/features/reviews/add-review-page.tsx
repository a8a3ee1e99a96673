import { zodResolver } from '@hookform/resolvers/zod';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import { toast } from 'react-toastify/unstyled';
import type { z } from 'zod';
import { REVIEW_AVATARS } from '../../../shared/schemas/review-image.ts';
import { type ReviewInput, reviewInputSchema } from '../../../shared/schemas/reviews.ts';
import { FormField } from '../../components/form-field.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { applyServerFieldErrors, blankNumber } from '../../lib/form.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { useAddReview } from './use-add-review.ts';

type ReviewFormValues = z.input<typeof reviewInputSchema>;

const reviewAddedMessage = 'Thank You For Your Review';

const empty: ReviewFormValues = { name: '', number: blankNumber, img: '', review: '' };

export function Component() {
  usePageTitle('Add Review');
  const add = useAddReview();
  const form = useForm<ReviewFormValues, unknown, ReviewInput>({
    resolver: zodResolver(reviewInputSchema),
    defaultValues: empty,
    mode: 'onTouched',
  });

  const submit = form.handleSubmit(async (values) => {
    try {
      await add.mutateAsync(values);
    } catch (error) {
      // A message about a field shows under it; only the others need the toast.
      const rest = applyServerFieldErrors(form, error);
      if (rest) toast.error(rest);
      return;
    }
    toast.success(reviewAddedMessage);
    form.reset(empty);
  });

  return (
    <section aria-labelledby="add-review-title">
      <h1 id="add-review-title" className="h3 mb-3">
        Please Say Something
      </h1>
      <Card className="p-3 p-md-4">
        <Form noValidate onSubmit={submit} aria-labelledby="add-review-title">
          <FormField form={form} name="name" label="Name" autoComplete="name" maxLength={60} />
          <FormField
            form={form}
            name="number"
            label="Rating (1 to 5)"
            type="number"
            inputMode="numeric"
            min="1"
            max="5"
            step="1"
            hint="1 is poor, 5 is excellent."
            asNumber
          />
          <FormField
            form={form}
            name="img"
            label="Image Link"
            type="text"
            inputMode="url"
            placeholder={REVIEW_AVATARS[1]}
            list="review-avatars"
            hint="A picture on this shop, such as one of our avatars (/images/avatars/avatar-1.svg to avatar-6.svg). Links to other sites are not accepted."
          />
          <datalist id="review-avatars">
            {REVIEW_AVATARS.map((avatar) => (
              <option key={avatar} value={avatar} />
            ))}
          </datalist>
          <FormField form={form} name="review" label="Review" as="textarea" rows={4} maxLength={500} />
          <SubmitButton busy={form.formState.isSubmitting} busyLabel="Sending your review…" className="btn-brand">
            Add Review
          </SubmitButton>
        </Form>
      </Card>
    </section>
  );
}
