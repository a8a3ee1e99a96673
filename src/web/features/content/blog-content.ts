// Blog posts are static, typed data: they change rarely and shipping them with the bundle
// keeps the page fast and free of an extra API endpoint.

interface BlogPost {
  /** URL-safe slug, also used as the in-page anchor (`/blog#<id>`). */
  id: string;
  question: string;
  /** One-sentence answer shown under the question and in the table of contents. */
  summary: string;
  paragraphs: readonly string[];
}

export const blogPosts: readonly BlogPost[] = [
  {
    id: 'react-re-rendering',
    question: 'How does React decide when to re-render?',
    summary:
      'A component re-renders when its state changes, when its parent re-renders, or when a context it reads changes.',
    paragraphs: [
      'React re-renders a component in three situations: its own state was updated with a new value, its parent re-rendered, or a context value it reads with useContext (or use) changed. Props are not a trigger on their own: a child re-renders because its parent did, whether or not its props changed. When you set state to a value that is identical to the current one (compared with Object.is), React can skip the work.',
      'Rendering only means calling your component function again to get a fresh description of the UI. React then reconciles that description with the previous one. Elements of the same type in the same position are updated in place; a different type means the old subtree is unmounted and a new one mounted; in lists, the key prop tells React which item is which. Only the differences are committed to the real DOM, which is why a re-render is usually cheap.',
      'When a render is genuinely expensive, you have options. memo lets a component skip rendering when its props are shallowly equal, and useMemo and useCallback keep objects and functions referentially stable so that comparison can succeed. The React Compiler can add this memoisation automatically at build time. Often the simpler fix is structural: move state down to the component that needs it, or pass expensive children in as props so they are not recreated. Measure with the React DevTools Profiler before optimising; most re-renders are not the bottleneck.',
    ],
  },
  {
    id: 'authentication-vs-authorization',
    question: 'What is the difference between authentication and authorization?',
    summary: 'Authentication proves who you are; authorization decides what you are allowed to do once that is known.',
    paragraphs: [
      'Authentication answers the question "who are you?". The user proves their identity with something they know, have or are: a password, a passkey, a one-time code, or a login at an identity provider through OpenID Connect. The result is a trusted identity, usually kept in a session cookie or a token for the following requests.',
      'Authorization answers a different question: "is this identity allowed to do this, to this resource, right now?". It is decided by rules such as roles (only staff may refund an order), ownership (customers may only see their own orders) and context (an order can no longer be cancelled once it has shipped). HTTP reflects the split: 401 Unauthorized really means "not authenticated", while 403 Forbidden means "authenticated, but not allowed".',
      "Authentication happens first, but authorization must be checked on every request, on the server. Hiding a button in the interface is not a security control. A very common bug is checking that someone is logged in and then loading a record by the ID in the URL without checking that it belongs to them, which lets anyone read other people's data by changing a number. Deny by default, grant the least privilege needed, and keep the rules in one place so they are easy to review. Note too that OAuth 2.0 is an authorization framework for delegated access; OpenID Connect is the layer that adds authentication on top of it.",
    ],
  },
  {
    id: 'password-hashing',
    question: 'Why should passwords be hashed with a slow, memory-hard function?',
    summary:
      'Because a stolen database of fast hashes can be guessed at billions of attempts per second, while a slow, memory-hard hash makes every guess expensive.',
    paragraphs: [
      'A server never needs to know a password, only to check that the one typed now matches the one chosen earlier. So it stores a one-way hash and compares hashes at login. The danger is a leaked database: attackers then guess offline, hashing candidate passwords from word lists and previous breaches until one matches, with no rate limit to stop them.',
      'General-purpose hashes such as SHA-256 are designed to be fast, and a single modern GPU can compute billions of them per second. A unique random salt per password is essential, because it defeats precomputed tables and stops identical passwords from producing identical hashes, but it does nothing to slow down each individual guess.',
      "Password hashing functions add a tunable cost. bcrypt and PBKDF2 make each hash take many iterations; scrypt and Argon2 are also memory-hard, requiring a large block of RAM for every attempt. Tens of milliseconds and a few megabytes are nothing for a single login, but they divide an attacker's throughput by orders of magnitude, and the memory requirement removes most of the advantage of GPUs and custom hardware, which have plenty of compute but little fast memory per core.",
      'Today OWASP recommends Argon2id, with scrypt as an alternative. Store the algorithm and parameters alongside each hash so you can raise the cost later and re-hash when users next log in, and still rate-limit the login endpoint, because an expensive hash is also a tempting target for denial-of-service.',
    ],
  },
  {
    id: 'sql-vs-nosql',
    question: 'What are the differences between SQL and NoSQL databases?',
    summary:
      'Relational databases enforce a schema and relationships with transactions; NoSQL databases trade some of that for flexible data models and easier horizontal scaling.',
    paragraphs: [
      'SQL, or relational, databases such as PostgreSQL and MySQL store data in tables with a defined schema. Relationships are expressed with foreign keys, queried with joins, and protected by constraints and ACID transactions, so an order, its lines and the stock change can all be saved together or not at all. The schema is declared up front, and the database keeps the data consistent for every application that uses it.',
      'NoSQL is an umbrella term for everything else: document stores such as MongoDB, key-value stores such as Redis and DynamoDB, wide-column stores such as Cassandra, and graph databases such as Neo4j. They usually have flexible or no schemas and expect you to model data around your access patterns, often duplicating it instead of joining. Many are built to spread data across many machines, and some relax consistency to stay available and fast, so a read may briefly return stale data.',
      'For typical business data with lots of relationships, such as customers, products, orders and payments, a relational database is the sensible default. NoSQL shines for very high write volumes with simple access patterns, naturally document-shaped or graph-shaped data, and caching or session storage. The line keeps blurring: PostgreSQL stores and indexes JSON well, and many NoSQL databases now offer transactions. Plenty of real systems use both, for example PostgreSQL as the source of truth with Redis for caching and rate limiting.',
    ],
  },
  {
    id: 'json-web-tokens',
    question: 'How does a JSON Web Token work and when should you not use one?',
    summary:
      'A JWT is a signed, readable set of claims that a server can verify without a database lookup, which makes it convenient to pass around but hard to revoke.',
    paragraphs: [
      'A JSON Web Token has three base64url-encoded parts separated by dots: a header naming the signing algorithm, a payload of claims such as the subject (sub), issuer (iss), audience (aud) and expiry (exp), and a signature. The signature is made with a shared secret (HMAC) or a private key (RSA or ECDSA). Any server holding the secret or the public key can check that the token was issued by a trusted party and has not been altered, then trust its claims without looking anything up.',
      'The payload is signed, not encrypted, so anyone holding the token can read it: never put secrets in it. Verification must pin the expected algorithm and check expiry, issuer and audience; libraries that accepted "alg: none" or confused key types caused real vulnerabilities.',
      'The main drawback is revocation. A token stays valid until it expires, so logging out, banning a user or changing their permissions does not take effect immediately unless you add a denylist, which brings back the server-side state JWTs were meant to avoid. The usual compromise is short-lived access tokens plus refresh tokens.',
      'Do not reach for a JWT as the session for an ordinary web application served from one backend. An opaque session ID in an HttpOnly, Secure, SameSite cookie is simpler, smaller, can be revoked instantly, and stays out of reach of JavaScript should an XSS bug slip through. JWTs fit better for short-lived tokens between services, OpenID Connect ID tokens and APIs used across domains.',
    ],
  },
  {
    id: 'unit-integration-e2e-tests',
    question: 'What is the difference between unit, integration and end-to-end tests?',
    summary:
      'They differ in how much of the real system runs: one unit in isolation, several parts together, or the whole application driven like a user would.',
    paragraphs: [
      'A unit test checks one small piece, such as a function that calculates a cart total or a component that formats a price, in isolation. Collaborators like the database or network are replaced with simple fakes. Unit tests run in milliseconds, point straight at the broken line when they fail, and make it cheap to cover edge cases; property-based testing can generate hundreds of those cases for you.',
      'An integration test runs several real parts together to check the contracts between them: an API route with its validation, business logic and a real database, for example. These tests catch the bugs unit tests cannot see, such as a wrong SQL query, a missing migration or a serialisation mismatch, at the cost of more setup and slower runs.',
      'An end-to-end test drives the complete, built application the way a user does, usually in a real browser with a tool such as Playwright: open the shop, add a part to the cart, check out. It gives the most confidence that the pieces really work together, but it is the slowest kind of test, the most prone to flakiness and the hardest to debug.',
      'A healthy suite combines all three: many unit tests, a solid layer of integration tests around the important boundaries, and a few end-to-end tests for the journeys that must never break, like signing in and paying. Whatever the level, test behaviour rather than implementation details, so the tests support refactoring instead of resisting it.',
    ],
  },
];
