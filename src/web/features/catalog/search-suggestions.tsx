import { useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, useContext, useEffect, useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { useSearchParams } from 'react-router';
import { formatUsd } from '../../../shared/money.ts';
import type { Part } from '../../../shared/schemas/parts.ts';
import type { PartSuggestions } from '../../../shared/schemas/search.ts';
import { PartCard, PurchaseLink } from '../../components/part-card.tsx';
import { GarageContext } from '../../lib/current-vehicle.tsx';
import { limitedToVehicle, readCatalogSearch } from './catalog-search-params.ts';
import { partSuggestionsQueryOptions } from './parts-api.ts';
import './search-suggestions.css';

/** What a shopper can pick from the suggestions: a part, a category or brand filter, or a correction. */
export type SuggestionChoice =
  | { kind: 'part'; part: Part }
  | { kind: 'category'; slug: string; name: string }
  | { kind: 'brand'; slug: string; name: string }
  | { kind: 'search'; text: string };

/**
 * The vehicle the parts list is limited to (the current one, unless the address says 'Show all parts'), or null:
 * suggestions then offer only parts that fit it, as the list would show them.
 */
function useListVehicle(): string | null {
  const [params] = useSearchParams();
  const current = useContext(GarageContext)?.current?.id ?? null;
  return limitedToVehicle(readCatalogSearch(params), current) ? current : null;
}

/** Typing pauses this long before suggestions are asked for: one request per pause, not per key. */
const DEBOUNCE_MS = 150;
/** Fewer letters than this suggest too much to be useful. */
const MIN_LETTERS = 2;

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

interface Option {
  key: string;
  choice: SuggestionChoice;
  label: string;
  detail?: string;
}

/** The suggestions as options, in the order the arrow keys walk them, grouped under their headings. */
function groupsOf(data: PartSuggestions): { heading: string; options: Option[] }[] {
  const groups: { heading: string; options: Option[] }[] = [];
  if (data.correction) {
    groups.push({
      heading: 'Did you mean',
      options: [{ key: 'correction', choice: { kind: 'search', text: data.correction }, label: data.correction }],
    });
  }
  if (data.parts.length > 0) {
    groups.push({
      heading: data.closest ? 'Closest names' : 'Parts',
      options: data.parts.map((part) => ({
        key: `part-${part._id}`,
        choice: { kind: 'part', part },
        label: part.name,
        detail: [part.brand?.name, formatUsd(part.price)].filter(Boolean).join(' · '),
      })),
    });
  }
  if (data.categories.length > 0) {
    groups.push({
      heading: 'Categories',
      options: data.categories.map((c) => ({
        key: `category-${c.slug}`,
        choice: { kind: 'category', ...c },
        label: c.name,
      })),
    });
  }
  if (data.brands.length > 0) {
    groups.push({
      heading: 'Brands',
      options: data.brands.map((b) => ({ key: `brand-${b.slug}`, choice: { kind: 'brand', ...b }, label: b.name })),
    });
  }
  return groups;
}

function announcement(count: number, data: PartSuggestions | undefined): string {
  if (!data) return '';
  if (count === 0) return 'No suggestions.';
  const what = `${count} ${count === 1 ? 'suggestion' : 'suggestions'}`;
  return data.closest
    ? `No exact matches; ${what}. Use the up and down arrows.`
    : `${what}. Use the up and down arrows.`;
}

/**
 * The parts search box with search-as-you-type (WAI-ARIA combobox with a listbox popup): the input keeps focus,
 * `aria-activedescendant` names the option the arrow keys are on, Enter picks it (or searches what is typed when
 * none is), Escape closes the list, and a status line announces how many suggestions there are.
 */
export function SearchCombobox({
  id,
  name,
  value,
  onChange,
  onChoose,
  placeholder,
}: {
  id: string;
  /** The field's name in its form: the form also works as a plain GET before the app runs. */
  name?: string;
  value: string;
  onChange(text: string): void;
  onChoose(choice: SuggestionChoice): void;
  placeholder: string;
}) {
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const typed = useDebounced(value.trim(), DEBOUNCE_MS);
  const enabled = open && typed.length >= MIN_LETTERS;
  const vehicleId = useListVehicle();
  const suggestions = useQuery({ ...partSuggestionsQueryOptions(typed, vehicleId), enabled });
  const data = enabled ? suggestions.data : undefined;
  const groups = data ? groupsOf(data) : [];
  const options = groups.flatMap((group) => group.options);
  const expanded = enabled && options.length > 0;
  const optionId = (index: number) => `${listId}-option-${index}`;

  // New suggestions: nothing is picked until the arrows pick it (state adjusted while rendering, React's way for
  // state that follows a value).
  const [shown, setShown] = useState(data);
  if (shown !== data) {
    setShown(data);
    setActive(-1);
  }
  useEffect(() => {
    if (active >= 0) document.getElementById(optionId(active))?.scrollIntoView({ block: 'nearest' });
  });

  const choose = (option: Option | undefined) => {
    if (!option) return;
    setOpen(false);
    onChoose(option.choice);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) setOpen(true);
      if (options.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) => {
        if (current < 0) return step > 0 ? 0 : options.length - 1;
        return (current + step + options.length) % options.length;
      });
    } else if (event.key === 'Enter') {
      if (expanded && active >= 0) {
        event.preventDefault();
        choose(options[active]);
      } else {
        setOpen(false);
      }
    } else if (event.key === 'Escape') {
      if (expanded) {
        event.preventDefault();
        setOpen(false);
        setActive(-1);
      }
    }
  };

  let index = -1;
  return (
    <div className="search-combobox position-relative flex-grow-1">
      <Form.Control
        id={id}
        name={name}
        type="search"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
        autoComplete="off"
        value={value}
        maxLength={100}
        placeholder={placeholder}
        onChange={(event) => {
          onChange(event.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      <div
        id={listId}
        role="listbox"
        aria-label="Search suggestions"
        className="search-suggestions list-unstyled border rounded bg-white shadow"
        hidden={!expanded}
      >
        {groups.map((group) => (
          // biome-ignore lint/a11y/useSemanticElements: a listbox groups its options with role=group, not a fieldset
          <div key={group.heading} role="group" aria-label={group.heading}>
            <div className="search-suggestions-heading" aria-hidden="true">
              {group.heading}
            </div>
            {group.options.map((option) => {
              index += 1;
              const at = index;
              return (
                // biome-ignore lint/a11y/useFocusableInteractive: focus stays in the input (aria-activedescendant)
                // biome-ignore lint/a11y/useKeyWithClickEvents: the input's arrow keys and Enter pick options
                <div
                  key={option.key}
                  id={optionId(at)}
                  role="option"
                  aria-selected={at === active}
                  className={`search-suggestion${at === active ? ' active' : ''}`}
                  // The input keeps focus: a click must not blur it (which would close the list first).
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => choose(option)}
                  onMouseMove={() => setActive(at)}
                >
                  <span className="search-suggestion-label">{option.label}</span>
                  {option.detail ? <span className="search-suggestion-detail">{option.detail}</span> : null}
                </div>
              );
            })}
          </div>
        ))}
      </div>
      <div role="status" className="visually-hidden">
        {enabled && !suggestions.isFetching ? announcement(options.length, data) : ''}
      </div>
    </div>
  );
}

/**
 * Under a search that found nothing: "Did you mean …?" when the catalogue has a name like it, and the
 * parts whose names are closest, so the page is never an empty answer alone.
 */
export function SearchHelp({ q, onSearch }: { q: string; onSearch(text: string): void }) {
  const help = useQuery(partSuggestionsQueryOptions(q.trim(), useListVehicle()));
  if (!help.data) return null;
  const { correction, parts, closest } = help.data;
  if (!correction && parts.length === 0) return null;
  return (
    <section className="mt-4 text-start" aria-labelledby="search-help-title">
      <h2 id="search-help-title" className="h5">
        {correction ? (
          <>
            Did you mean{' '}
            <Button variant="link" className="p-0 align-baseline fs-5" onClick={() => onSearch(correction)}>
              {correction}
            </Button>
            ?
          </>
        ) : (
          'Closest matches'
        )}
      </h2>
      {parts.length > 0 ? (
        <>
          {correction ? <p className="text-body-secondary mb-2">{closest ? 'Closest matches:' : 'Matches:'}</p> : null}
          <Row xs={1} sm={2} xl={3} className="g-4">
            {parts.map((part) => (
              <Col key={part._id}>
                <PartCard part={part} headingLevel={3}>
                  <PurchaseLink part={part} />
                </PartCard>
              </Col>
            ))}
          </Row>
        </>
      ) : null}
    </section>
  );
}
