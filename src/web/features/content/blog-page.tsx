import { useEffect } from 'react';
import { Card, Col, Container, Row } from 'react-bootstrap';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { blogPosts } from './blog-content.ts';
import './content.css';

const CONTENTS_ID = 'blog-contents';

export function Component() {
  usePageTitle('Blogs');

  useEffect(() => {
    // This route module is lazy-loaded, so when someone opens a shared /blog#<id> link the browser
    // tries to jump to the fragment before the articles exist; repeat the jump once they are rendered.
    const id = decodeURIComponent(window.location.hash.slice(1));
    if (id) {
      document.getElementById(id)?.scrollIntoView();
    }
  }, []);

  return (
    <Container className="py-4 py-lg-5">
      <header className="mb-4 content-prose">
        <h1 className="display-6 fw-bold">Blogs</h1>
        <p className="lead text-body-secondary mb-0">
          Short, practical answers to questions that come up again and again when building web applications like this
          shop, from how React renders to how passwords should be stored.
        </p>
      </header>

      <Row className="g-4 g-lg-5">
        <Col xs={12} lg={4}>
          <Card as="nav" aria-labelledby={CONTENTS_ID} className="content-toc shadow-sm">
            <Card.Body>
              <h2 id={CONTENTS_ID} className="h5 mb-3 content-anchor">
                Contents
              </h2>
              <ol className="mb-0 ps-3">
                {blogPosts.map((post) => (
                  <li key={post.id} className="mb-2">
                    <a href={`#${post.id}`}>{post.question}</a>
                  </li>
                ))}
              </ol>
            </Card.Body>
          </Card>
        </Col>

        <Col xs={12} lg={8}>
          {blogPosts.map((post, index) => (
            <article
              key={post.id}
              id={post.id}
              aria-labelledby={`${post.id}-title`}
              className={`content-anchor content-prose${index > 0 ? ' border-top pt-4 mt-4' : ''}`}
            >
              <h2 id={`${post.id}-title`} className="h3">
                {post.question}
              </h2>
              <p className="fw-semibold text-body-secondary">{post.summary}</p>
              {post.paragraphs.map((paragraph) => (
                <p key={paragraph.slice(0, 40)}>{paragraph}</p>
              ))}
              <p className="mb-0 small">
                <a href={`#${CONTENTS_ID}`}>Back to contents</a>
              </p>
            </article>
          ))}
        </Col>
      </Row>
    </Container>
  );
}
