// expect: cannot use optional chaining on non-optional value of type 'UnsafeMutableRawPointer'
// The check must refuse what Darwin refuses and Glibc accepts: pthread.h on Darwin is audited for
// nullability, so the key destructor's parameter is a non-optional pointer (Glibc's is optional).
import Foundation

func makeKey() -> pthread_key_t {
    var key = pthread_key_t()
    pthread_key_create(&key) { pointer in pointer?.deallocate() }
    return key
}
