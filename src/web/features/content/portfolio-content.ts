// SAMPLE CONTENT: the shop owner replaces this file with the real developer's details.
// It is plain typed data rather than an API call so the page renders without a round trip
// and can be edited without touching the database or the page component.

export interface PortfolioSkill {
  name: string;
  /** Self-assessed proficiency from 0 to 100. */
  level: number;
}

export interface PortfolioProject {
  name: string;
  description: string;
  technologies: readonly string[];
  /** Optional public link; omit it for private or unpublished work. */
  url?: string;
}

interface PortfolioContent {
  name: string;
  role: string;
  email: string;
  location: string;
  education: string;
  bio: string;
  skills: readonly PortfolioSkill[];
  projects: readonly PortfolioProject[];
}

export const portfolioContent: PortfolioContent = {
  name: 'Your Name',
  role: 'Full-stack developer',
  email: 'developer@example.com',
  location: 'Your City, Your Country',
  education: 'BSc in Computer Science, Your University (20XX)',
  bio:
    'This is sample text for the portfolio page. Replace it with a few sentences about yourself: ' +
    'the kind of products you like to build, how you approach quality and accessibility, and what ' +
    'you are learning at the moment. Two or three short sentences read better than a long paragraph.',
  skills: [
    { name: 'TypeScript', level: 90 },
    { name: 'React', level: 88 },
    { name: 'Node.js', level: 85 },
    { name: 'HTML and accessibility', level: 85 },
    { name: 'CSS and Bootstrap', level: 80 },
    { name: 'REST API design', level: 82 },
    { name: 'PostgreSQL', level: 75 },
    { name: 'Automated testing', level: 78 },
    { name: 'Git and CI/CD', level: 80 },
    { name: 'Docker', level: 65 },
  ],
  projects: [
    {
      name: 'Redline Parts online shop',
      description:
        'This shop: a catalogue of vehicle and motorcycle parts and gear with search and filters, ' +
        'ordering with stock reservation, card checkout, customer accounts and an order history.',
      technologies: ['React', 'TypeScript', 'Fastify', 'PostgreSQL', 'Stripe'],
    },
    {
      name: 'Workshop booking tool (sample)',
      description:
        'A sample entry: a small scheduling app that lets a garage publish free service slots and ' +
        'lets customers book one online, with reminder emails the day before.',
      technologies: ['React', 'Node.js', 'PostgreSQL'],
      url: 'https://example.com/',
    },
    {
      name: 'Open-source contributions (sample)',
      description:
        'A sample entry: documentation improvements, accessibility fixes and bug reports for the ' +
        'open-source libraries used in day-to-day work.',
      technologies: ['TypeScript', 'Accessibility', 'Documentation'],
    },
  ],
};
