/** The shop's own contact details and social pages, in one place the owner edits. */
export const shopInfo = {
  name: 'Redline Parts',
  contactEmail: 'hello@redline.dev',
  contactPhone: '+1 555 0100',
  social: {
    facebook: 'https://www.facebook.com/',
    twitter: 'https://x.com/',
    linkedin: 'https://www.linkedin.com/',
    instagram: 'https://www.instagram.com/',
  },
} as const;
