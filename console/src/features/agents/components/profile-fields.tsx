import { Button, Card, Checkbox, FormGroup, H3, InputGroup } from '@blueprintjs/core';
import { MORTGAGE_PURPOSES, PRODUCT_TYPES, REPAYMENT_TYPES, FEE_PAYMENTS } from '@pf/events';
import {
  emptyProduct,
  withErcYears,
  type NeedsForm,
  type NeedsNumberKey,
  type ProductForm,
  type ProductNumberKey,
  type RangeForm,
} from './profile-form';
import { ChoiceField } from '../../../components/choice-field';

function NumberBox({
  id,
  label,
  value,
  onChange,
  unit,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  unit?: string;
}) {
  return (
    <FormGroup label={label} labelFor={id} inline={false}>
      <InputGroup
        id={id}
        inputMode="decimal"
        value={value}
        rightElement={unit ? <span className="pf-muted pf-small pf-unit">{unit}</span> : undefined}
        onValueChange={onChange}
      />
    </FormGroup>
  );
}

/** A borrower's needs as a broker records them (docs/behaviour/products.md, "Needs"). */
export function NeedsFields({ needs, onChange }: { needs: NeedsForm; onChange: (needs: NeedsForm) => void }) {
  const box = (key: NeedsNumberKey, label: string, unit?: string) => (
    <NumberBox
      id={`needs-${key}`}
      label={label}
      unit={unit}
      value={needs[key]}
      onChange={(value) => onChange({ ...needs, [key]: value })}
    />
  );
  return (
    <div className="pf-grid pf-grid-2" data-testid="needs-fields">
      {box('propertyValue', 'Property value', '£')}
      {box('loanAmount', 'Loan wanted', '£')}
      {box('termYears', 'Term', 'years')}
      {box('ageYears', 'Age now (oldest applicant)', 'years')}
      <ChoiceField
        id="needs-purpose"
        label="Purpose"
        value={needs.purpose}
        options={MORTGAGE_PURPOSES}
        onChange={(purpose) => onChange({ ...needs, purpose })}
      />
      <ChoiceField
        id="needs-repayment"
        label="Repayment"
        value={needs.repaymentType}
        options={REPAYMENT_TYPES}
        onChange={(repaymentType) => onChange({ ...needs, repaymentType })}
      />
      <ChoiceField
        id="needs-period"
        label="Preferred initial period (months)"
        value={needs.preferredInitialPeriodMonths}
        options={['', '24', '36', '60', '120']}
        onChange={(preferredInitialPeriodMonths) => onChange({ ...needs, preferredInitialPeriodMonths })}
      />
      <ChoiceField
        id="needs-fee"
        label="Product fee"
        value={needs.fee}
        options={FEE_PAYMENTS}
        onChange={(fee) => onChange({ ...needs, fee })}
      />
      {box('maxFeePounds', 'Most they will pay in fees', '£')}
      {box('annualIncome', 'Annual income', '£')}
      {box('monthlyCommitments', 'Commitments a month', '£')}
      {box('expectedMonthlyRent', 'Expected rent a month (buy-to-let)', '£')}
    </div>
  );
}

/** A lender's product range (docs/behaviour/products.md, "A product"): one card per product. */
export function RangeFields({ range, onChange }: { range: RangeForm; onChange: (range: RangeForm) => void }) {
  const setProduct = (index: number, product: ProductForm) =>
    onChange({ ...range, products: range.products.map((p, i) => (i === index ? product : p)) });
  return (
    <div data-testid="range-fields">
      <div className="pf-grid pf-grid-2">
        <NumberBox
          id="range-proc-fee"
          label="Procuration fee paid to brokers"
          unit="% of loan"
          value={range.procurationFeePercent}
          onChange={(procurationFeePercent) => onChange({ ...range, procurationFeePercent })}
        />
        <NumberBox
          id="range-max-age"
          label="Oldest at the end of the term"
          unit="years"
          value={range.maxAgeAtTermEnd}
          onChange={(maxAgeAtTermEnd) => onChange({ ...range, maxAgeAtTermEnd })}
        />
      </div>
      {range.products.map((product, index) => (
        <ProductFields
          key={index}
          index={index}
          product={product}
          onChange={(next) => setProduct(index, next)}
          onRemove={
            range.products.length > 1 ? () => onChange({ ...range, products: range.products.filter((_, i) => i !== index) }) : undefined
          }
        />
      ))}
      <Button
        icon="add"
        text="Add product"
        variant="outlined"
        onClick={() => onChange({ ...range, products: [...range.products, emptyProduct(range.products.length)] })}
      />
    </div>
  );
}

function ProductFields({
  index,
  product,
  onChange,
  onRemove,
}: {
  index: number;
  product: ProductForm;
  onChange: (p: ProductForm) => void;
  onRemove: (() => void) | undefined;
}) {
  const id = (field: string) => `product-${index}-${field}`;
  const box = (key: ProductNumberKey, label: string, unit?: string) => (
    <NumberBox id={id(key)} label={label} unit={unit} value={product[key]} onChange={(value) => onChange({ ...product, [key]: value })} />
  );
  const togglePurpose = (purpose: (typeof MORTGAGE_PURPOSES)[number]) =>
    onChange({
      ...product,
      purposes: product.purposes.includes(purpose) ? product.purposes.filter((p) => p !== purpose) : [...product.purposes, purpose],
    });
  return (
    <Card className="pf-section" data-testid="product-fields">
      <H3 className="pf-h5">Product {index + 1}</H3>
      <div className="pf-grid pf-grid-2">
        <FormGroup label="Product name" labelFor={id('name')}>
          <InputGroup id={id('name')} value={product.name} onValueChange={(name) => onChange({ ...product, name })} />
        </FormGroup>
        <ChoiceField
          id={id('type')}
          label="Type"
          value={product.type}
          options={PRODUCT_TYPES}
          onChange={(type) => onChange({ ...product, type })}
        />
        <NumberBox
          id={id('period')}
          label="Initial period"
          unit="years"
          value={product.initialPeriodYears}
          onChange={(years) => onChange(withErcYears(product, years))}
        />
        {box('reversionRatePercent', 'Reversion rate', '%')}
      </div>
      <FormGroup label="Purposes">
        {MORTGAGE_PURPOSES.map((purpose) => (
          <Checkbox
            key={purpose}
            inline
            label={purpose}
            checked={product.purposes.includes(purpose)}
            onChange={() => togglePurpose(purpose)}
          />
        ))}
      </FormGroup>
      <p className="pf-small">Initial rate by LTV band{product.type === 'tracker' ? ' (margin over Bank Rate)' : ''}</p>
      {product.bands.map((band, b) => (
        <div className="pf-grid pf-grid-2" key={b}>
          <NumberBox
            id={id(`band-${b}-ltv`)}
            label={`Band ${b + 1}: up to LTV`}
            unit="%"
            value={band.maxLtvPercent}
            onChange={(maxLtvPercent) =>
              onChange({ ...product, bands: product.bands.map((x, i) => (i === b ? { ...x, maxLtvPercent } : x)) })
            }
          />
          <NumberBox
            id={id(`band-${b}-rate`)}
            label={`Band ${b + 1}: rate`}
            unit="%"
            value={band.ratePercent}
            onChange={(ratePercent) => onChange({ ...product, bands: product.bands.map((x, i) => (i === b ? { ...x, ratePercent } : x)) })}
          />
        </div>
      ))}
      <Button
        small
        icon="add"
        text="Add band"
        variant="minimal"
        onClick={() => onChange({ ...product, bands: [...product.bands, { maxLtvPercent: '', ratePercent: '' }] })}
      />
      <div className="pf-grid pf-grid-2">
        <ChoiceField
          id={id('fee-kind')}
          label="Fee in"
          value={product.feeKind}
          options={['pounds', 'percent'] as const}
          onChange={(feeKind) => onChange({ ...product, feeKind })}
        />
        {box('fee', product.feeKind === 'pounds' ? 'Product fee' : 'Product fee (% of loan)', product.feeKind === 'pounds' ? '£' : '%')}
        {product.feeKind === 'percent' ? box('feeMinimumPounds', 'Minimum fee', '£') : null}
        {box('feeFreePremiumPercent', 'Fee-free alternative: rate higher by', 'points')}
        {box('minLoanPounds', 'Minimum loan', '£')}
        {box('maxLoanPounds', 'Maximum loan', '£')}
      </div>
      <p className="pf-small">Early repayment charges (% of the amount repaid)</p>
      <div className="pf-grid pf-grid-2">
        {product.ercPercentByYear.map((erc, year) => (
          <NumberBox
            key={year}
            id={id(`erc-${year}`)}
            label={`Year ${year + 1}`}
            unit="%"
            value={erc}
            onChange={(value) =>
              onChange({ ...product, ercPercentByYear: product.ercPercentByYear.map((x, i) => (i === year ? value : x)) })
            }
          />
        ))}
      </div>
      <p className="pf-small">What the lender’s agent may give when it prices a case</p>
      <div className="pf-grid pf-grid-2">
        {box('rateReductionPercent', 'Rate reduction up to', 'points')}
        {box('lowLtvPercent', '…for a case at or below LTV', '%')}
        {box('largeLoanPounds', '…or a loan of at least', '£')}
        {box('feeReductionPounds', 'Fee reduction up to', '£')}
        {box('cashbackPounds', 'Cashback up to', '£')}
      </div>
      {onRemove ? <Button icon="trash" text="Remove product" variant="minimal" onClick={onRemove} /> : null}
    </Card>
  );
}
