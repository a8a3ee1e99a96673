/** The spec keeps the bearer token in localStorage under `accessToken`; this module is the only one that touches it. */
const KEY = 'accessToken';

export function readToken(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function storeToken(token: string): void {
  localStorage.setItem(KEY, token);
}

export function clearToken(): void {
  localStorage.removeItem(KEY);
}
