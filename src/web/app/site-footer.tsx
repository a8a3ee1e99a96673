import Col from 'react-bootstrap/Col';
import Container from 'react-bootstrap/Container';
import Row from 'react-bootstrap/Row';
import { Link } from 'react-router';
import { paths } from '../../shared/paths.ts';
import { SocialIcon, type SocialNetwork } from '../components/social-icons.tsx';
import { shopInfo } from '../features/content/shop-info.ts';

const networks: SocialNetwork[] = ['facebook', 'twitter', 'linkedin', 'instagram'];

export function SiteFooter() {
  const year = new Date().getFullYear();
  return (
    <footer className="site-footer mt-auto">
      <Container className="py-4">
        <Row className="gy-4 align-items-start">
          <Col xs={12} md={6}>
            <h2 className="h5">Follow Us</h2>
            <ul className="list-inline mb-0">
              {networks.map((network) => (
                <li key={network} className="list-inline-item">
                  <a
                    href={shopInfo.social[network]}
                    className="social-link"
                    aria-label={`${shopInfo.name} on ${network}`}
                    rel="noopener noreferrer"
                    target="_blank"
                  >
                    <SocialIcon network={network} />
                  </a>
                </li>
              ))}
            </ul>
          </Col>
          <Col xs={12} md={6}>
            <nav aria-label="Footer">
              <ul className="footer-menu list-unstyled d-flex flex-wrap gap-3 justify-content-md-end mb-0">
                <li>
                  <Link to={paths.home}>Home</Link>
                </li>
                <li>
                  <Link to={paths.parts}>Parts</Link>
                </li>
                <li>
                  <Link to={paths.blog}>Blog</Link>
                </li>
                <li>
                  <a href={`mailto:${shopInfo.contactEmail}`}>Contact</a>
                </li>
              </ul>
            </nav>
          </Col>
        </Row>
        <p className="text-center small mb-0 mt-4 footer-copyright">
          © {year} {shopInfo.name}. All Rights Reserved
        </p>
      </Container>
    </footer>
  );
}
