import { useState } from 'react';
import { Chip } from '../../../ui/Chip/Chip';
import styles from './Gallery.module.css';

/** Chips of every variant and state. */
export default function ChipsDemo() {
  const [cover, setCover] = useState('life');

  return (
    <div className={styles.stack}>
      <h3 className={styles.subheading}>Button chips</h3>
      <div className={styles.grid}>
        <Chip title="Pet care" description="Vets, sitters and walkers near you" />
        <Chip
          title="Home repairs"
          description="Plumbers, electricians and handymen"
          defaultSelected
        />
        <Chip title="Moving house" description="Not available in your area yet" disabled />
        <Chip title="Legal help" description="Choose at least one topic" error />
        <Chip
          title="Travel planning with a very long title that has to be clamped to two lines at most"
          description="Flights, hotels and everything in between, described at such length that the description also needs to be clamped to two lines."
          image="default"
        />
      </div>

      <h3 className={styles.subheading}>Link chips</h3>
      <div className={styles.grid}>
        <Chip
          variant="link"
          href="/requests"
          title="Your requests"
          description="See what we are working on"
        />
        <Chip
          variant="external-link"
          href="https://example.com/term-life"
          title="Term life insurance"
          description="Compare quotes with our partner"
          image="default"
        />
        <Chip
          variant="link"
          href="/requests"
          title="Archived requests"
          description="Coming soon"
          disabled
        />
      </div>

      <fieldset className={styles.fieldset}>
        <legend className={styles.legend}>Radio chips: cover type</legend>
        <div className={styles.grid}>
          {[
            { value: 'life', title: 'Life', description: 'Protect your family' },
            { value: 'home', title: 'Home', description: 'Protect your house' },
            { value: 'pet', title: 'Pet', description: 'Protect your animals' },
          ].map((option) => (
            <Chip
              key={option.value}
              variant="radio"
              name="kit_cover"
              value={option.value}
              title={option.title}
              description={option.description}
              selected={cover === option.value}
              onSelectedChange={(selected) => {
                if (selected) setCover(option.value);
              }}
            />
          ))}
          <Chip
            variant="radio"
            name="kit_cover"
            value="auto"
            title="Auto"
            description="Not offered to you"
            selected={cover === 'auto'}
            disabled
          />
        </div>
      </fieldset>

      <fieldset className={styles.fieldset}>
        <legend className={styles.legend}>Checkbox chips: topics</legend>
        <div className={styles.grid}>
          <Chip
            variant="checkbox"
            name="kit_topics"
            value="wills"
            title="Wills"
            description="Write or update a will"
          />
          <Chip
            variant="checkbox"
            name="kit_topics"
            value="trusts"
            title="Trusts"
            description="Set up a trust"
            defaultSelected
          />
          <Chip
            variant="checkbox"
            name="kit_topics"
            value="estate"
            title="Estate"
            description="Pick at least one"
            error
          />
          <Chip
            variant="checkbox"
            name="kit_topics"
            value="probate"
            title="Probate"
            description="Unavailable"
            disabled
          />
        </div>
      </fieldset>
    </div>
  );
}
