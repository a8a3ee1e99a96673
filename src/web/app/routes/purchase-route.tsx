import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { partQueryOptions } from '../../features/catalog/parts-api.ts';
import { PurchasePage } from '../../features/orders/purchase-page.tsx';

/** /part/{partId}: the catalogue's part, ordered through the orders feature's purchase screen. */
export function Component() {
  const { partId = '' } = useParams();
  return <PurchasePage part={useQuery(partQueryOptions(partId))} />;
}
