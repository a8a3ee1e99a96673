import { PagePlaceholder } from '../../components/page-placeholder.tsx';

export function Component() {
  return <PagePlaceholder title="Add Review" />;
}
