// expect: cannot assign value of type 'Int' to type 'Int32'
// The check must refuse what Darwin refuses and Glibc accepts: Darwin's `msghdr.msg_iovlen` is an
// `Int32` (Glibc's is an `Int`).
import Darwin

func header(count: Int) -> msghdr {
    var message = msghdr()
    message.msg_iovlen = count
    return message
}
