package satcheck

// SetSupportStages changes the stages of DependsOn and SemanticSupport for a
// test: truth tables up to 2^bits rows, random simulation on or off. It
// returns a function restoring the defaults.
func SetSupportStages(bits int, sim bool) (restore func()) {
	oldBits, oldSim := supportExhaustiveBits, supportSim
	supportExhaustiveBits, supportSim = bits, sim
	return func() { supportExhaustiveBits, supportSim = oldBits, oldSim }
}

// ReferenceActionClasses is the tests' reference implementation of
// ActionClasses (classes_ref_internal_test.go).
var ReferenceActionClasses = referenceActionClasses
