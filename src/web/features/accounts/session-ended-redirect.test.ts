import { describe, expect, it } from 'vitest';
import { afterSignIn, returnPath } from './session-ended-redirect.tsx';

describe('afterSignIn (the admin-page loop)', () => {
  it('sends a non-admin home instead of back to an admin page', () => {
    expect(afterSignIn('/dashboard/users', { isAdmin: false })).toBe('/');
    expect(afterSignIn('/dashboard/manageorder?page=2#top', { isAdmin: false })).toBe('/');
  });

  it('sends an admin back, and anyone back to a page they may open', () => {
    expect(afterSignIn('/dashboard/users', { isAdmin: true })).toBe('/dashboard/users');
    expect(afterSignIn('/allparts?q=chain', { isAdmin: false })).toBe('/allparts?q=chain');
  });
});

describe('returnPath', () => {
  it('never returns to a sign-in page or off the site', () => {
    expect(returnPath({ from: { pathname: '/reset-password' } })).toBe('/');
    expect(returnPath({ from: { pathname: '//evil.example' } })).toBe('/');
    expect(returnPath({ from: { pathname: '/dashboard/myprofile', search: '?a=1' } })).toBe('/dashboard/myprofile?a=1');
  });
});
