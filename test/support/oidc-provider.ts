import { Events, OAuth2Server } from 'oauth2-mock-server';

/** Who the stand-in provider says signed in: the claims Google puts in its ID token. */
export interface ProviderIdentity {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
}

export interface LocalOidcProvider {
  /** The issuer URL (http://127.0.0.1:<port>), for GOOGLE_ISSUER. */
  issuer: string;
  /** Sets who signs in on the next authorizations (stays until changed). */
  signInAs(identity: ProviderIdentity): void;
  stop(): Promise<void>;
}

/**
 * A local OpenID provider speaking the real protocol (discovery, JWKS, authorization code with PKCE, signed ID
 * tokens with the nonce), standing in for Google in tests. Port 0 picks a free port.
 */
export async function startOidcProvider(port = 0): Promise<LocalOidcProvider> {
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  let identity: ProviderIdentity = {
    sub: 'google-user-1',
    email: 'rider@example.com',
    email_verified: true,
    name: 'Road Rider',
  };
  server.service.on(Events.BeforeTokenSigning, (token) => {
    // Every token this provider signs carries the current identity; openid-client reads it from the ID token.
    Object.assign(token.payload, identity);
    if (identity.email === undefined) delete token.payload.email;
    if (identity.email_verified === undefined) delete token.payload.email_verified;
  });
  await server.start(port, '127.0.0.1');
  const issuer = server.issuer.url ?? `http://127.0.0.1:${server.address().port}`;
  return {
    issuer,
    signInAs(next) {
      identity = { ...next };
    },
    stop: () => server.stop(),
  };
}

/** The shop's settings that point "Sign In With Google" at a local provider, as the integration tests use them. */
export function googleSettingsFor(
  provider: LocalOidcProvider,
  client = { id: 'redline-test-client', secret: 'redline-test-secret' },
): { GOOGLE_CLIENT_ID: string; GOOGLE_CLIENT_SECRET: string; GOOGLE_ISSUER: string; PUBLIC_URL: string } {
  return {
    GOOGLE_CLIENT_ID: client.id,
    GOOGLE_CLIENT_SECRET: client.secret,
    GOOGLE_ISSUER: provider.issuer,
    PUBLIC_URL: 'http://shop.test',
  };
}
