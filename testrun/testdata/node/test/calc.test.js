'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { add, sub } = require('../calc.js');

test('adds numbers', () => {
  assert.strictEqual(add(2, 3), 5);
});

test('subtracts numbers', () => {
  assert.strictEqual(sub(5, 3), 2);
});

test('skipped for now', { skip: 'not ready yet' }, () => {
  assert.fail('never runs');
});

test.describe('strings', () => {
  test.it('upper-cases', () => {
    assert.strictEqual('a'.toUpperCase(), 'A');
  });
  test.it('lower-cases', () => {
    throw new Error('lower exploded');
  });
});
