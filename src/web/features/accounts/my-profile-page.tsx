import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { useForm } from 'react-hook-form';
import { toast } from 'react-toastify/unstyled';
import type { z } from 'zod';
import { toastMessages } from '../../../shared/messages.ts';
import { type Profile, profileBodySchema } from '../../../shared/schemas/accounts.ts';
import { FormField } from '../../components/form-field.tsx';
import { LoadError, LoadingSpinner } from '../../components/query-state.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { useAuth } from '../../lib/auth-context.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { profileQuery } from './accounts-api.ts';
import { ChangePasswordForm } from './change-password-form.tsx';
import { SignOutEverywhere } from './sign-out-everywhere.tsx';
import { useSaveProfile } from './use-account-mutations.ts';
import './accounts.css';

type ProfileForm = z.input<typeof profileBodySchema>;
type ProfileValues = z.output<typeof profileBodySchema>;
const empty: ProfileValues = { education: '', phonenumber: '', img: '', link: '' };

function SavedProfile({ profile, name }: { profile: Profile; name: string }) {
  if (!profile.updatedAt) {
    return <p className="text-body-secondary mb-0">No details yet. Fill in the form to complete your profile.</p>;
  }
  return (
    <dl className="profile-details mb-0">
      {profile.img ? (
        <dd className="mb-3">
          <img src={profile.img} alt={name} className="profile-photo" />
        </dd>
      ) : null}
      <dt>Education</dt>
      <dd className="text-break profile-education">{profile.education || '—'}</dd>
      <dt>Phone</dt>
      <dd>{profile.phonenumber || '—'}</dd>
      <dt>LinkedIn</dt>
      <dd className="text-break mb-0">
        {profile.link ? (
          <a href={profile.link} target="_blank" rel="noopener noreferrer">
            {profile.link}
          </a>
        ) : (
          '—'
        )}
      </dd>
    </dl>
  );
}

/** Spec §2 My Profile: name and email, the saved details, and the form that saves them ('Add Item'). */
export function Component() {
  usePageTitle('My Profile');
  const { user } = useAuth();
  const profile = useQuery(profileQuery);
  const form = useForm<ProfileForm, unknown, ProfileValues>({
    resolver: zodResolver(profileBodySchema),
    defaultValues: empty,
  });
  const { reset } = form;

  // Prefill with what was saved, once it has loaded.
  useEffect(() => {
    if (profile.data) {
      const { education, phonenumber, img, link } = profile.data;
      reset({ education, phonenumber, img, link });
    }
  }, [profile.data, reset]);

  const save = useSaveProfile();
  const submit = form.handleSubmit((values) =>
    save.mutate(values, {
      onSuccess: () => toast.success(toastMessages.profileSaved),
      onError: (error) => toast.error(errorMessage(error)),
    }),
  );

  const name = user?.displayName || user?.email || '';
  return (
    <section aria-labelledby="profile-title">
      <h1 id="profile-title" className="h2 mb-3">
        My Profile
      </h1>
      <Row className="g-4">
        <Col lg={5}>
          <Card className="shadow-sm">
            <Card.Body>
              <h2 className="h5 mb-1">{user?.displayName || 'No name yet'}</h2>
              <p className="text-body-secondary text-break">{user?.email}</p>
              {profile.isError ? (
                <LoadError error={profile.error} onRetry={() => void profile.refetch()} what="your profile" />
              ) : profile.isPending ? (
                <LoadingSpinner label="Loading your profile…" />
              ) : (
                <SavedProfile profile={profile.data} name={name} />
              )}
            </Card.Body>
          </Card>
        </Col>
        <Col lg={7}>
          <Card className="shadow-sm">
            <Card.Body>
              <h2 className="h5 mb-3">Update your details</h2>
              {profile.isPending ? (
                <LoadingSpinner label="Loading the form…" />
              ) : (
                <Form noValidate onSubmit={submit}>
                  <FormField form={form} name="education" label="Education" as="textarea" rows={3} />
                  <FormField form={form} name="phonenumber" label="Phone Number" type="tel" autoComplete="tel" />
                  <FormField
                    form={form}
                    name="img"
                    label="Photo URL"
                    type="url"
                    placeholder="https://…"
                    hint="A link to your photo (http or https)."
                  />
                  <FormField
                    form={form}
                    name="link"
                    label="LinkedIn Profile URL"
                    type="url"
                    placeholder="https://www.linkedin.com/in/…"
                  />
                  <SubmitButton busy={save.isPending} busyLabel="Saving…" className="btn-brand">
                    Add Item
                  </SubmitButton>
                </Form>
              )}
            </Card.Body>
          </Card>
        </Col>
      </Row>
      <Row className="g-4 mt-0">
        <Col lg={7}>
          <Card className="shadow-sm h-100">
            <Card.Body>
              <h2 id="change-password-title" className="h5 mb-3">
                Change Password
              </h2>
              <ChangePasswordForm email={user?.email ?? ''} hasPassword={user?.hasPassword !== false} />
            </Card.Body>
          </Card>
        </Col>
        <Col lg={5}>
          <Card className="shadow-sm h-100">
            <Card.Body>
              <h2 className="h5 mb-3">Sign Out Everywhere</h2>
              <SignOutEverywhere />
            </Card.Body>
          </Card>
        </Col>
      </Row>
    </section>
  );
}
