// WireKit
