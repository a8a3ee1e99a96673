import { Badge, Card, Col, Container, Row } from 'react-bootstrap';
import { usePageTitle } from '../../lib/use-page-title.ts';
import './content.css';
import { type PortfolioProject, type PortfolioSkill, portfolioContent } from './portfolio-content.ts';

function SkillMeter({ skill }: { skill: PortfolioSkill }) {
  // Owners edit the data by hand, so clamp rather than trust it to stay within 0-100.
  const level = Math.min(100, Math.max(0, Math.round(skill.level)));

  return (
    <li className="col mb-3">
      <div className="d-flex justify-content-between gap-2 mb-1">
        <span className="fw-semibold">{skill.name}</span>
        <span className="text-body-secondary" aria-hidden="true">
          {level}%
        </span>
      </div>
      {/* An SVG bar, not Bootstrap's: its width is an attribute, where Bootstrap's is a style attribute, which the
          Content-Security-Policy refuses in HTML the server renders. */}
      <div
        className="content-skill-bar"
        role="progressbar"
        aria-label={`${skill.name} proficiency`}
        aria-valuenow={level}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuetext={`${level}%`}
      >
        <svg aria-hidden="true" focusable="false">
          <rect className="content-skill-track" width="100%" height="100%" rx="5" />
          <rect className="content-skill-fill" width={`${level}%`} height="100%" rx="5" />
        </svg>
      </div>
    </li>
  );
}

function ProjectCard({ project }: { project: PortfolioProject }) {
  return (
    <Card as="article" className="h-100 shadow-sm">
      <Card.Body className="d-flex flex-column">
        <Card.Title as="h3" className="h5">
          {project.name}
        </Card.Title>
        <Card.Text>{project.description}</Card.Text>
        <ul className="list-inline mb-0 mt-auto" aria-label="Technologies">
          {project.technologies.map((technology) => (
            <li key={technology} className="list-inline-item mb-1">
              <Badge bg="light" text="dark" className="border fw-medium">
                {technology}
              </Badge>
            </li>
          ))}
        </ul>
      </Card.Body>
      {project.url ? (
        <Card.Footer className="bg-transparent">
          <a href={project.url} target="_blank" rel="noopener noreferrer">
            View {project.name}
            <span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        </Card.Footer>
      ) : null}
    </Card>
  );
}

export function Component() {
  const { name, role, email, location, education, bio, skills, projects } = portfolioContent;
  usePageTitle('My Portfolio');

  return (
    <Container className="py-4 py-lg-5">
      <header className="mb-4">
        <h1 className="display-6 fw-bold mb-1">{name}</h1>
        <p className="lead text-body-secondary mb-0">{role}</p>
      </header>

      <Row className="g-4">
        <Col xs={12} lg={5} xl={4}>
          <Card as="section" aria-labelledby="portfolio-about" className="h-100 shadow-sm">
            <Card.Body>
              <h2 id="portfolio-about" className="h4 mb-3">
                About
              </h2>
              <dl className="row mb-3">
                <dt className="col-sm-3 col-lg-12 col-xl-4">Role</dt>
                <dd className="col-sm-9 col-lg-12 col-xl-8">{role}</dd>
                <dt className="col-sm-3 col-lg-12 col-xl-4">Email</dt>
                <dd className="col-sm-9 col-lg-12 col-xl-8 text-break">
                  <a href={`mailto:${email}`}>{email}</a>
                </dd>
                <dt className="col-sm-3 col-lg-12 col-xl-4">Location</dt>
                <dd className="col-sm-9 col-lg-12 col-xl-8">{location}</dd>
                <dt className="col-sm-3 col-lg-12 col-xl-4">Education</dt>
                <dd className="col-sm-9 col-lg-12 col-xl-8">{education}</dd>
              </dl>
              <p className="mb-0">{bio}</p>
            </Card.Body>
          </Card>
        </Col>

        <Col xs={12} lg={7} xl={8}>
          <section aria-labelledby="portfolio-skills">
            <h2 id="portfolio-skills" className="h4 mb-3">
              Skills
            </h2>
            <Row as="ul" xs={1} md={2} className="list-unstyled gx-4 mb-0">
              {skills.map((skill) => (
                <SkillMeter key={skill.name} skill={skill} />
              ))}
            </Row>
          </section>
        </Col>
      </Row>

      <section aria-labelledby="portfolio-projects" className="mt-4">
        <h2 id="portfolio-projects" className="h4 mb-3">
          Projects
        </h2>
        <Row xs={1} md={2} lg={3} className="g-4">
          {projects.map((project) => (
            <Col key={project.name}>
              <ProjectCard project={project} />
            </Col>
          ))}
        </Row>
      </section>
    </Container>
  );
}
