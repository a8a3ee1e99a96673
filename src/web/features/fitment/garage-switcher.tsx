import Button from 'react-bootstrap/Button';
import ListGroup from 'react-bootstrap/ListGroup';
import Modal from 'react-bootstrap/Modal';
import { toast } from 'react-toastify/unstyled';
import { errorMessage } from '../../lib/api-client.ts';
import { type GarageVehicle, useGarage } from '../../lib/current-vehicle.tsx';
import { VehicleSelector } from './vehicle-selector.tsx';

/** "2019 Yamaha YZ250F (Race bike)": a garage vehicle with its nickname. */
export function garageVehicleName(entry: Pick<GarageVehicle, 'vehicle' | 'name'>): string {
  return entry.name ? `${entry.vehicle.label} (${entry.name})` : entry.vehicle.label;
}

/**
 * 'Change' beside 'Shopping for: …': shop for another vehicle of the garage, or add one with the selector. Choosing
 * closes the dialog; the page's lists follow the new vehicle.
 */
export function GarageSwitcher({ show, onHide }: { show: boolean; onHide(): void }) {
  const garage = useGarage();
  const choose = async (action: () => Promise<void>) => {
    try {
      await action();
      onHide();
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };
  return (
    <Modal show={show} onHide={onHide} size="lg" aria-labelledby="garage-switcher-title">
      <Modal.Header closeButton>
        <Modal.Title id="garage-switcher-title" as="h2" className="h5">
          Choose your vehicle
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {garage.vehicles.length > 0 ? (
          <section aria-labelledby="garage-switcher-garage" className="mb-4">
            <h3 id="garage-switcher-garage" className="h6">
              {garage.owner === 'account' ? 'My Garage' : 'Your garage'}
            </h3>
            <ListGroup as="ul">
              {garage.vehicles.map((entry) => (
                <ListGroup.Item
                  as="li"
                  key={entry.id}
                  className="d-flex flex-wrap align-items-center justify-content-between gap-2"
                >
                  <span>
                    {garageVehicleName(entry)}
                    {entry.current ? <span className="badge text-bg-dark ms-2">Current</span> : null}
                  </span>
                  {entry.current ? null : (
                    <Button
                      size="sm"
                      variant="outline-dark"
                      aria-label={`Shop for this vehicle: ${entry.vehicle.label}`}
                      onClick={() => choose(() => garage.setCurrent(entry.id))}
                    >
                      Shop for this vehicle
                    </Button>
                  )}
                </ListGroup.Item>
              ))}
            </ListGroup>
          </section>
        ) : null}
        <section aria-labelledby="garage-switcher-add">
          <h3 id="garage-switcher-add" className="h6">
            {garage.vehicles.length > 0 ? 'Another vehicle' : 'Your vehicle'}
          </h3>
          <VehicleSelector
            idPrefix="switch-vehicle"
            submitLabel="Shop for this vehicle"
            label="Choose another vehicle"
            wideFrom="xl"
            onSelect={async (vehicle) => {
              await garage.choose(vehicle);
              onHide();
            }}
          />
        </section>
      </Modal.Body>
    </Modal>
  );
}
