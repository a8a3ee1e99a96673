import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { PartGallery } from '../../components/part-gallery.tsx';
import { partQueryOptions } from '../../features/catalog/parts-api.ts';
import { Component as NotFoundPage } from '../../features/content/not-found-page.tsx';
import { FitBadge, fitText } from '../../features/fitment/fit-badge.tsx';
import { FitmentList, summariseFitment } from '../../features/fitment/fitment-list.tsx';
import { PurchasePage } from '../../features/orders/purchase-page.tsx';
import { namesNothing } from '../../lib/api-client.ts';
import { useForgetVanishedVehicle, useGarage } from '../../lib/current-vehicle.tsx';

/**
 * /part/{partId}: the catalogue's part, ordered through the orders feature's purchase screen, with what the fitment
 * feature says about it: the fit badge for the current vehicle, the vehicles it fits when it does not fit
 * that one, its full fitment, and the question to ask before ordering a part that does not fit.
 */
export function Component() {
  const { partId = '' } = useParams();
  const garage = useGarage();
  const vehicle = garage.current;
  const part = useQuery({
    ...partQueryOptions(partId, vehicle?.id),
    enabled: garage.status !== 'pending',
    // The same part stays on the screen while its answer for another vehicle loads: the server's page (rendered for
    // no vehicle) once the browser's vehicle is known, a signed-in garage still loading, a vehicle just changed.
    // Without it the page went back to its skeleton and the order form was made anew, emptying what was typed.
    placeholderData: (previous) => (previous?._id === partId ? previous : undefined),
  });
  const details = part.data;
  // Whether it fits the current vehicle is known only from that vehicle's answer, not from the one kept meanwhile.
  const fit = part.isPlaceholderData ? undefined : details?.fit;
  // A 404 naming the vehicle may mean the vehicle is gone, not the part.
  useForgetVanishedVehicle(part.error);
  const notFit = details && vehicle && fit === 'doesNotFit' ? vehicle : null;
  // No such part (or an id that cannot be one): the address names no page, as an unknown address does. The server
  // answered this address 404 already; trying again would only get the same answer.
  if (part.isError && !details && namesNothing(part.error)) return <NotFoundPage />;
  return (
    <PurchasePage
      part={part}
      fitPending={vehicle !== null && part.isPlaceholderData}
      badge={<FitBadge fit={fit} vehicleLabel={vehicle?.label} />}
      fitNotice={
        notFit && details
          ? {
              text: fitText('doesNotFit', notFit.label),
              fitsInstead: details.fitment.length > 0 ? `It fits: ${summariseFitment(details.fitment)}.` : null,
            }
          : null
      }
      fitment={details ? <FitmentList groups={details.fitment} universal={details.universal} /> : null}
      gallery={
        details && details.photos.length > 0 ? (
          <PartGallery key={details._id} name={details.name} photos={details.photos} />
        ) : undefined
      }
    />
  );
}
